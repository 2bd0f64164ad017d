/**
 * X-Forwarded-* headers say what a reverse proxy saw (the browser's scheme and host). Anyone can send
 * them, so they are believed only on requests whose peer is a configured trusted proxy; the handler
 * decides that per connection and passes it to the app as `trustedProxy`.
 */

/** The first value of a forwarded header, or undefined when the request did not come through a trusted proxy. */
export function forwardedHeader(
  request: Request,
  name: "x-forwarded-proto" | "x-forwarded-host",
  trustedProxy: boolean,
): string | undefined {
  if (!trustedProxy) return undefined;
  return request.headers.get(name)?.split(",")[0].trim().toLowerCase() || undefined;
}

/** The server's origin as the browser sees it. */
export function publicOrigin(request: Request, trustedProxy: boolean): string {
  const url = new URL(request.url);
  const proto = forwardedHeader(request, "x-forwarded-proto", trustedProxy) ?? url.protocol.replace(":", "");
  const host = forwardedHeader(request, "x-forwarded-host", trustedProxy) ?? request.headers.get("host") ??
    url.host;
  return `${proto}://${host}`;
}

/** True when the request reached us (or the trusted proxy in front) over HTTPS. */
export function cameOverHttps(request: Request, trustedProxy: boolean): boolean {
  return forwardedHeader(request, "x-forwarded-proto", trustedProxy) === "https" ||
    new URL(request.url).protocol === "https:";
}

/**
 * The client's address: the peer, or the first X-Forwarded-For address when the peer is a trusted proxy
 * ("unknown" when the app is called without connection facts).
 */
export function clientAddress(
  request: Request,
  env: { trustedProxy?: boolean; peer?: string } | undefined,
): string {
  const forwarded = env?.trustedProxy
    ? request.headers.get("x-forwarded-for")?.split(",")[0].trim()
    : undefined;
  return forwarded || env?.peer || "unknown";
}
