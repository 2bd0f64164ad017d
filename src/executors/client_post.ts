import type { ProviderClient } from "./http_clients.ts";

/** What a POST through `clientPost` answers: the status, a header by lower-case name, the body's start. */
export interface PostedAnswer {
  readonly status: number;
  header(name: string): string | null;
  /** At most the first `maxBodyBytes` of the body. */
  readonly body: Uint8Array;
}

/**
 * A POST that reads its whole (short) answer, over a ProviderClient: the gateway's HTTP/1.1 client, or
 * `fetch` when the environment routes the URL through a proxy (the client decides). For the trace
 * exporter: measured with two gateways loaded side by side (2026-11-28), exporting every request's spans
 * through it cost 4 % less CPU per request than through `fetch`. A body past `maxBodyBytes` is dropped
 * with its connection.
 */
export function clientPost(
  client: ProviderClient,
  maxBodyBytes: number,
): (
  url: string,
  headers: Record<string, string>,
  body: string | Uint8Array<ArrayBuffer>,
  signal: AbortSignal,
) => Promise<PostedAnswer> {
  return async (url, headers, body, signal) => {
    const answer = await client.post(url, headers, body, signal);
    const chunks: Uint8Array[] = [];
    let size = 0;
    // Each chunk is valid only until the next read: kept as copies.
    for (let chunk = await answer.read(); chunk !== null; chunk = await answer.read()) {
      const kept = chunk.slice(0, maxBodyBytes - size);
      chunks.push(kept);
      size += kept.length;
      if (size >= maxBodyBytes) {
        answer.cancel();
        break;
      }
    }
    const all = new Uint8Array(size);
    let at = 0;
    for (const chunk of chunks) {
      all.set(chunk, at);
      at += chunk.length;
    }
    return { status: answer.status, header: (name) => answer.header(name), body: all };
  };
}
