/**
 * The HTTP responses the dashboard's and features' routes send, made here so that only `src/http` builds
 * a `Response` (DESIGN rule 14): routes say what to send (JSON, a download, a page, a redirect, an event
 * stream), this module says how it goes on the wire, with the caching and framing rules each needs.
 */

const NO_STORE = "private, no-store";

/** JSON with `Cache-Control: private, no-store` (state, one-time credentials, management answers). */
export function privateJson(data: unknown, status = 200, headers: HeadersInit = {}): Response {
  const all = new Headers(headers);
  all.set("content-type", "application/json");
  if (!all.has("cache-control")) all.set("cache-control", NO_STORE);
  return new Response(JSON.stringify(data), { status, headers: all });
}

/** A file the browser saves (`content-disposition: attachment`), never cached: exports hold secrets. */
export function download(body: string, contentType: string, filename: string): Response {
  return new Response(body, {
    headers: {
      "content-type": contentType,
      "content-disposition": `attachment; filename="${filename}"`,
      "cache-control": NO_STORE,
    },
  });
}

/** A redirect (302 for moved screens, 303 after a form post), with any extra headers (cookies). */
export function redirect(location: string, status: 302 | 303, headers: HeadersInit = {}): Response {
  const all = new Headers(headers);
  all.set("location", location);
  return new Response(null, { status, headers: all });
}

/**
 * A server-rendered page (the sign-in page): no scripts, no framing, never cached. `cookies` are Set-Cookie
 * values (a sign-in that ends on a page rather than a redirect).
 */
export function htmlPage(body: string, status: number, cookies: readonly string[] = []): Response {
  const headers = new Headers({
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    "content-security-policy":
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
    "x-frame-options": "DENY",
  });
  for (const cookie of cookies) headers.append("set-cookie", cookie);
  return new Response(body, { status, headers });
}

/** A server-sent event stream for the dashboard's live feed (no proxy buffering, never cached). */
export function eventStream(body: ReadableStream<Uint8Array>): Response {
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, private",
      "x-accel-buffering": "no",
    },
  });
}
