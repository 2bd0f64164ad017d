/** The dashboard session cookie's name. */
export const SESSION_COOKIE = "gateway_dashboard_key";

/** Reads one cookie from a Cookie header. */
export function readCookie(header: string | null, name: string): string {
  if (!header) return "";
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return "";
      }
    }
  }
  return "";
}

/** The Set-Cookie value for a session token (maxAge 0 clears it). */
export function sessionCookie(token: string, maxAgeSeconds: number, secure: boolean): string {
  return `${SESSION_COOKIE}=${
    encodeURIComponent(token)
  }; HttpOnly; SameSite=Strict; Path=/; Max-Age=${maxAgeSeconds}` +
    (secure ? "; Secure" : "");
}
