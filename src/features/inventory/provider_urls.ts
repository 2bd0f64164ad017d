import type { ProviderConfig } from "../../config/mod.ts";

const trimmed = (url: string) => url.replace(/\/+$/, "");

/**
 * True when `url` is a provider row's base URL: an address an administrator configured, checked even on a
 * private or loopback address. URLs that arrive with pushed or imported keys stay behind the SSRF guard.
 */
export function isProviderBaseUrl(rows: readonly ProviderConfig[], url: string): boolean {
  return url !== "" && rows.some((row) => trimmed(row.baseUrl) === trimmed(url));
}
