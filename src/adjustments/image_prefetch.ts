import { lookup } from "node:dns/promises";
import { concatBytes } from "../bytes.ts";
import type { GatewayWarning, ImagePart, Message, NeutralRequest, Part } from "../model/mod.ts";
import { warning } from "../model/mod.ts";
import { isPublicAddress } from "../security/ip_ranges.ts";
import { pinnedGet, type PinnedResponse } from "./pinned_get.ts";
import type { AdjustTarget } from "./target.ts";

/** Largest image the gateway downloads. */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
/** How long one download may take. */
export const IMAGE_TIMEOUT_MS = 20_000;
const MAX_REDIRECTS = 3;

function needsInline(target: AdjustTarget): boolean {
  if (target.inlineImagesOnly) return true;
  switch (target.upstreamFormat) {
    case "generate_content":
    case "local_runner":
    case "cloud_assistant":
      return true;
    case "chat_completions":
    case "responses":
    case "messages":
      return false;
  }
}

function imagesOf(parts: readonly Part[], out: Set<string>): void {
  for (const part of parts) {
    if (part.kind === "image" && part.source.type === "url" && /^https?:\/\//i.test(part.source.url)) {
      out.add(part.source.url);
    } else if (part.kind === "toolResult") imagesOf(part.content, out);
  }
}

/** The http(s) image URLs to download for a target that only takes inline image data. */
export function imagesToPrefetch(request: NeutralRequest, target: AdjustTarget): string[] {
  if (!needsInline(target)) return [];
  const urls = new Set<string>();
  for (const message of request.messages) imagesOf(message.parts, urls);
  return [...urls];
}

/** What prefetching needs from outside. */
export interface PrefetchDeps {
  /** The addresses a host name resolves to (every A and AAAA record the system resolver returns). */
  readonly resolve: (hostname: string) => Promise<readonly string[]>;
  /** GETs `url` over a connection to exactly `address`: the address that was checked, not a new lookup. */
  readonly get: (url: URL, address: string, signal: AbortSignal) => Promise<PinnedResponse>;
  /** Whether an address (and port) may be fetched from; see `systemPrefetchDeps`. */
  readonly isAllowedAddress: (address: string, port: number) => boolean;
  readonly maxBytes?: number;
  readonly timeoutMs?: number;
  /** A signal that aborts after `ms`; defaults to AbortSignal.timeout. */
  readonly timeoutSignal?: (ms: number) => AbortSignal;
}

/** Options of the real prefetcher. */
export interface SystemPrefetchOptions {
  /** YAML `server.allow_private_image_urls`: also fetch from private, loopback and link-local addresses. */
  readonly allowPrivateTargets: boolean;
  /** Replaces the public-address rule (tests, where every target is on loopback). */
  readonly isAllowedAddress?: (address: string, port: number) => boolean;
  /** Extra trust roots for https targets (tests). */
  readonly caCerts?: string[];
}

/**
 * The prefetcher's real resolver and connection. Only public addresses are fetched from unless the
 * operator allows private targets: image URLs come from API clients, and a gateway fetching them is
 * otherwise a way into the network it runs in (cloud metadata, admin ports, local model servers).
 */
export function systemPrefetchDeps(options: SystemPrefetchOptions): PrefetchDeps {
  const allowed = options.isAllowedAddress ??
    (options.allowPrivateTargets ? () => true : (address: string) => isPublicAddress(address));
  return {
    resolve: async (hostname) =>
      (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address),
    get: (url, address, signal) => pinnedGet(url, address, { signal, caCerts: options.caCerts }),
    isAllowedAddress: allowed,
  };
}

/** The downloads that failed, and why; their image parts stay as URLs. */
export interface PrefetchResult {
  readonly request: NeutralRequest;
  readonly failures: readonly { readonly url: string; readonly reason: string }[];
  /** One `changed_part:image_not_fetched` per failure: the upstream may reject the URL it gets instead. */
  readonly warnings: readonly GatewayWarning[];
}

type Inline = { readonly mediaType: string; readonly data: string };

function base64(bytes: Uint8Array): string {
  let binary = "";
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) {
    binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  }
  return btoa(binary);
}

async function readCapped(body: ReadableStream<Uint8Array>, max: number): Promise<Uint8Array> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > max) {
      await reader.cancel();
      throw new Error(`image is larger than ${max} bytes`);
    }
    chunks.push(value);
  }
  return concatBytes(chunks, total);
}

/** A lookup cannot be cancelled, but the download's deadline must not wait for it. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

function isIpLiteral(host: string): boolean {
  return /^\d{1,3}(?:\.\d{1,3}){3}$/.test(host) || host.includes(":");
}

/**
 * Resolves a URL's host and checks every address it resolves to; returns the one to connect to. A name
 * with any refused address is refused whole: mixing a public and a private answer is how DNS tricks
 * aim a check at one address and the fetch at another.
 */
async function checkedAddress(url: URL, deps: PrefetchDeps, signal: AbortSignal): Promise<string> {
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  const addresses = isIpLiteral(host) ? [host] : await untilAborted(deps.resolve(host), signal);
  if (addresses.length === 0) throw new Error(`${url.hostname} does not resolve`);
  if (!addresses.every((address) => deps.isAllowedAddress(address, port))) {
    throw new Error(
      `refused to fetch ${url.host}: it is a private or loopback address ` +
        "(the operator can allow such targets with server.allow_private_image_urls)",
    );
  }
  return addresses[0];
}

// Redirects are followed by hand so every hop gets the same address check as the first URL.
async function download(url: string, deps: PrefetchDeps): Promise<Inline> {
  const max = deps.maxBytes ?? MAX_IMAGE_BYTES;
  const signal = (deps.timeoutSignal ?? ((ms: number) => AbortSignal.timeout(ms)))(
    deps.timeoutMs ?? IMAGE_TIMEOUT_MS,
  );
  let current = new URL(url);
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    if (current.protocol !== "http:" && current.protocol !== "https:") throw new Error("not an http(s) URL");
    const address = await checkedAddress(current, deps, signal);
    const response = await deps.get(current, address, signal);
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      const location = response.headers.get("location");
      if (!location) throw new Error(`HTTP ${response.status} without a Location header`);
      current = new URL(location, current);
      continue;
    }
    if (response.status < 200 || response.status > 299) {
      await response.body?.cancel();
      throw new Error(`HTTP ${response.status}`);
    }
    const mediaType = (response.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
    if (!mediaType.startsWith("image/")) {
      await response.body?.cancel();
      throw new Error(`content type "${mediaType || "none"}" is not an image`);
    }
    const declared = Number(response.headers.get("content-length") ?? "0");
    if (declared > max) {
      await response.body?.cancel();
      throw new Error(`image is larger than ${max} bytes`);
    }
    const bytes = response.body ? await readCapped(response.body, max) : new Uint8Array();
    return { mediaType, data: base64(bytes) };
  }
  throw new Error(`more than ${MAX_REDIRECTS} redirects`);
}

function replaceParts(parts: readonly Part[], fetched: ReadonlyMap<string, Inline>): readonly Part[] {
  let changed = false;
  const out = parts.map((part): Part => {
    if (part.kind === "image" && part.source.type === "url") {
      const inline = fetched.get(part.source.url);
      if (!inline) return part;
      changed = true;
      return { ...part, source: { type: "base64", ...inline } } satisfies ImagePart;
    }
    if (part.kind === "toolResult") {
      const content = replaceParts(part.content, fetched);
      if (content === part.content) return part;
      changed = true;
      return { ...part, content: content as typeof part.content };
    }
    return part;
  });
  return changed ? out : parts;
}

/**
 * Downloads the given image URLs and inlines them as base64. Each hop's host is resolved and every
 * address checked with `isAllowedAddress` before connecting to that very address; bodies over 20 MiB
 * and non-image content types are refused. A failed image
 * keeps its URL part and is listed in `failures`; the request always goes on.
 */
export async function prefetchImages(
  request: NeutralRequest,
  urls: readonly string[],
  deps: PrefetchDeps,
): Promise<PrefetchResult> {
  if (urls.length === 0) return { request, failures: [], warnings: [] };
  const fetched = new Map<string, Inline>();
  const failures: { url: string; reason: string }[] = [];
  const warnings: GatewayWarning[] = [];
  await Promise.all(urls.map(async (url) => {
    try {
      fetched.set(url, await download(url, deps));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      failures.push({ url, reason });
      warnings.push(
        warning("changed_part:image_not_fetched", `image prefetch failed, sent as a URL: ${reason}`, { url }),
      );
    }
  }));
  if (fetched.size === 0) return { request, failures, warnings };
  let changed = false;
  const messages = request.messages.map((message): Message => {
    const parts = replaceParts(message.parts, fetched);
    if (parts === message.parts) return message;
    changed = true;
    return { ...message, parts };
  });
  return { request: changed ? { ...request, messages } : request, failures, warnings };
}
