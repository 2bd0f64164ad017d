/**
 * The one way a key check reaches out: http(s) only, no credentials in the URL, every address the host
 * resolves to must be public unless the operator allows private targets (keys and base URLs come from
 * pushes and pastes, so a check is otherwise a way into the gateway's own network), redirects followed by
 * hand and re-checked, a timeout on the whole call and a cap on the body read.
 */
import { lookup } from "node:dns/promises";
import { isPublicAddress } from "../security/ip_ranges.ts";

/** A target the guard refused (never reached). */
export class RefusedTarget extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RefusedTarget";
  }
}

/** An upstream answer, read whole (bodies are capped). */
export interface CheckResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

/** A guarded call; throws RefusedTarget, or the fetch's own error (timeouts are TimeoutError). */
export type CheckFetch = (
  url: string,
  init: {
    method: "GET" | "POST";
    headers: Record<string, string>;
    body?: string;
    /**
     * An origin an administrator configured (a provider row's base URL): checked there even on a private or
     * loopback address. The guard is for URLs that arrive with pushed or imported keys; a redirect elsewhere
     * is guarded again.
     */
    trustedOrigin?: string;
  },
) => Promise<CheckResponse>;

/** How the guard behaves. */
export interface GuardOptions {
  readonly allowPrivate: boolean;
  readonly timeoutMs: number;
  /** Host name → addresses (tests may replace it). */
  readonly resolve?: (host: string) => Promise<string[]>;
  readonly fetch?: typeof fetch;
}

const MAX_BODY = 1024 * 1024;
const MAX_REDIRECTS = 3;

async function systemResolve(host: string): Promise<string[]> {
  return (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
}

/**
 * Refuses a target the guard would not call (not http(s), credentials in it, or a private address unless
 * allowed); budget webhooks check each delivery's URL with it too.
 */
export async function checkTarget(
  url: URL,
  options: Pick<GuardOptions, "allowPrivate" | "resolve">,
): Promise<void> {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new RefusedTarget(`only http and https targets are checked, not ${url.protocol}`);
  }
  if (url.username !== "" || url.password !== "") {
    throw new RefusedTarget("credentials in the URL are refused");
  }
  if (options.allowPrivate) return;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const addresses = await (options.resolve ?? systemResolve)(host);
  if (addresses.length === 0) throw new RefusedTarget(`${url.hostname} does not resolve`);
  const blocked = addresses.find((a) => !isPublicAddress(a));
  if (blocked !== undefined) {
    throw new RefusedTarget(
      `${url.hostname} resolves to a private, loopback or link-local address (${blocked}); ` +
        "inventory.allow_private_targets allows such targets",
    );
  }
}

async function readCapped(response: Response): Promise<string> {
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > MAX_BODY) {
      await reader.cancel();
      break;
    }
    chunks.push(value);
  }
  const all = new Uint8Array(Math.min(size, MAX_BODY));
  let offset = 0;
  for (const c of chunks) {
    all.set(c.subarray(0, all.length - offset), offset);
    offset += c.length;
  }
  return new TextDecoder().decode(all);
}

/** A CheckFetch under the given guard. */
export function guardedFetch(options: GuardOptions): CheckFetch {
  const doFetch = options.fetch ?? fetch;
  return async (url, init) => {
    const signal = AbortSignal.timeout(options.timeoutMs);
    let target = new URL(url);
    for (let hop = 0;; hop++) {
      // The origin an administrator configured is called even on a private address; a redirect elsewhere is not.
      await checkTarget(
        target,
        target.origin === init.trustedOrigin ? { ...options, allowPrivate: true } : options,
      );
      const { trustedOrigin: _, ...request } = init;
      const response = await doFetch(target, { ...request, redirect: "manual", signal });
      const location = response.headers.get("location");
      if (response.status >= 300 && response.status < 400 && location !== null) {
        await response.body?.cancel();
        if (hop >= MAX_REDIRECTS) throw new RefusedTarget(`more than ${MAX_REDIRECTS} redirects`);
        target = new URL(location, target);
        continue;
      }
      return { status: response.status, headers: response.headers, text: await readCapped(response) };
    }
  };
}
