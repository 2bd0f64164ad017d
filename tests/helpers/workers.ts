/** `gateway serve --workers N` as a real process tree, and HTTP clients held to one worker each. */
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { waitFor } from "./wait.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

/** A running `serve --workers N`. */
export interface Workers {
  readonly child: Deno.ChildProcess;
  /** The URL the supervisor printed, or undefined when it did not start. */
  readonly url: string | undefined;
  /** Everything the supervisor printed on stdout, once it exited. */
  readonly output: Promise<string>;
  readonly errors: Promise<string>;
  /** What it printed so far. */
  printed(): string;
  /** SIGTERM, then waits for the exit; resolves to the exit code and the output. */
  stop(): Promise<{ code: number; output: string }>;
}

/** Starts `serve --workers <n> --port 0` on `home` and waits for its "listening … with n workers" line. */
export async function startWorkers(
  home: string,
  workers = 2,
  env: Record<string, string> = {},
): Promise<Workers> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "serve", "--workers", String(workers), "--port", "0"],
    env: { GATEWAY_HOME: home, NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stdout = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let printed = "";
  while (!printed.includes("workers\n")) {
    const { value, done } = await stdout.read();
    if (done) break;
    printed += value;
  }
  const url = new RegExp(`listening on (http://\\S+) with ${workers} workers`).exec(printed)?.[1];
  const output = (async () => {
    for (let r = await stdout.read(); !r.done; r = await stdout.read()) printed += r.value;
    return printed;
  })();
  const errors = new Response(child.stderr).text();
  let stopped: Promise<{ code: number; output: string }> | undefined;
  return {
    child,
    url,
    output,
    errors,
    printed: () => printed,
    stop() {
      stopped ??= (async () => {
        try {
          child.kill("SIGTERM");
        } catch { /* already gone */ }
        const status = await child.status;
        await errors;
        return { code: status.code, output: await output };
      })();
      return stopped;
    },
  };
}

/**
 * Waits until every worker of `home` has a heartbeat row and has seen the others' (one heartbeat: 1 s).
 * Each process counts its peers right after writing its own row, so a row written after all rows were
 * there belongs to a process that counted every peer.
 */
export async function waitForPeers(home: string, workers: number): Promise<void> {
  const members = () => {
    let db: DatabaseSync | undefined;
    try {
      db = new DatabaseSync(join(home, "gateway.db"), { readOnly: true });
      const row = db.prepare("SELECT count(*) AS n, min(seen_at) AS oldest FROM cluster_members").get() as {
        n: number;
        oldest: number;
      };
      return { n: Number(row.n), oldest: Number(row.oldest) };
    } catch {
      return { n: 0, oldest: 0 }; // the database or the table is not there yet
    } finally {
      db?.close();
    }
  };
  await waitFor(() => members().n >= workers, { what: `${workers} workers in the cluster table` });
  const allThere = Date.now();
  await waitFor(() => members().oldest > allThere, {
    what: `a heartbeat of each of the ${workers} workers after all had joined`,
  });
}

/** An HTTP client whose one keep-alive connection stays with one worker (the kernel picks per connection). */
export interface PinnedClient {
  readonly worker: string;
  /**
   * Sends a request on the held connection. The answer is read to its end before it is returned (a body
   * cancelled half-read would close the connection), unless `stream` is set: then the connection stays
   * busy with it and the client must not be used again.
   */
  fetch(path: string, init?: RequestInit, stream?: boolean): Promise<Response>;
  close(): void;
}

/**
 * Opens connections until each of `count` workers has one, telling them apart by `x-gateway-worker`.
 * Bounded: 40 connections at most (the kernel hashes each new connection to a worker).
 */
export async function pinnedClients(url: string, count = 2): Promise<Map<string, PinnedClient>> {
  const found = new Map<string, PinnedClient>();
  for (let i = 0; i < 40 && found.size < count; i++) {
    const client = Deno.createHttpClient({ poolMaxIdlePerHost: 1, http2: false });
    const response = await fetch(`${url}/v1/health`, { client });
    await response.arrayBuffer();
    const worker = response.headers.get("x-gateway-worker");
    if (worker === null || found.has(worker)) {
      client.close();
      continue;
    }
    found.set(worker, {
      worker,
      fetch: async (path, init = {}, stream = false) => {
        const answer = await fetch(`${url}${path}`, { ...init, client });
        // A client whose connection moved to another worker would make the test prove nothing.
        const served = answer.headers.get("x-gateway-worker");
        if (served !== worker) throw new Error(`pinned to worker ${worker}, answered by ${served}`);
        if (stream) return answer;
        const { status, statusText, headers } = answer;
        return new Response(status === 204 || status === 304 ? null : await answer.arrayBuffer(), {
          status,
          statusText,
          headers,
        });
      },
      close: () => client.close(),
    });
  }
  if (found.size < count) throw new Error(`only reached workers ${[...found.keys()].join(", ")}`);
  return found;
}

/** Polls `condition` every `stepMs` for at most `timeoutMs`; returns the ms it took. */
export function waitUntil(
  condition: () => boolean | Promise<boolean>,
  timeoutMs: number,
  stepMs = 20,
): Promise<number> {
  return waitFor(condition, { what: "the condition", timeoutMs, intervalMs: stepMs });
}

/** Signs in to the dashboard with `apiKey` on `client`'s worker; the session cookie (`name=value`). */
export async function dashboardLogin(client: PinnedClient, apiKey: string): Promise<string> {
  const login = await client.fetch("/dashboard/login", {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ api_key: apiKey, next: "/dashboard" }),
  });
  if (login.status !== 303) throw new Error(`dashboard login answered ${login.status}`);
  return (login.headers.get("set-cookie") ?? "").split(";")[0];
}
