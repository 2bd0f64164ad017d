/**
 * A loopback pass-through in front of a server that records the method and path of every request, for
 * tests that must show which endpoint a real client (a separate process) called.
 */

/** A running recorder. */
export interface PathRecorder {
  /** Its own URL: give this to the client instead of the server's. */
  readonly url: string;
  /** `METHOD /path` of every request, in arrival order (query strings left off). */
  readonly seen: string[];
  close(): Promise<void>;
}

/** Starts a recorder forwarding every request to `target` (an origin such as http://127.0.0.1:1234). */
export function startPathRecorder(target: string): PathRecorder {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    const url = new URL(request.url);
    seen.push(`${request.method} ${url.pathname}`);
    const headers = new Headers(request.headers);
    // The forwarding fetch sets its own host and length.
    headers.delete("host");
    headers.delete("content-length");
    const body = request.method === "GET" || request.method === "HEAD"
      ? undefined
      : await request.arrayBuffer();
    // The answer (a stream included) goes back as it comes.
    return await fetch(`${target}${url.pathname}${url.search}`, {
      method: request.method,
      headers,
      body,
      signal: request.signal,
    });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    seen,
    close: () => server.shutdown(),
  };
}
