/**
 * Whether the environment sends a URL through an outbound proxy (`HTTPS_PROXY`, `HTTP_PROXY`,
 * `ALL_PROXY`, minus `NO_PROXY`; lower or upper case). Such URLs are called with `fetch`, which speaks
 * to proxies; the gateway's own HTTP/1.1 client does not.
 *
 * When unsure it answers true: a URL sent to fetch needlessly costs CPU, one sent past a required proxy
 * fails. So NO_PROXY exempts only what it plainly names (`*`, a host, a `.domain` suffix, optionally
 * with `:port`); anything fancier goes to fetch, which applies its own NO_PROXY rules.
 */
export function usesEnvProxy(url: URL, env: (name: string) => string | undefined): boolean {
  const get = (name: string) => env(name) || env(name.toUpperCase()) || "";
  const proxy = (url.protocol === "https:" ? get("https_proxy") : get("http_proxy")) || get("all_proxy");
  if (proxy === "") return false;
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  for (const raw of get("no_proxy").split(/[\s,]+/)) {
    const entry = raw.trim().toLowerCase();
    if (entry === "*") return false;
    const match = /^(?:\*?\.)?([a-z0-9.-]+)(?::(\d+))?$/.exec(entry);
    if (match === null || (match[2] !== undefined && match[2] !== port)) continue;
    const name = match[1];
    if (host === name || host.endsWith(`.${name}`)) return false;
  }
  return true;
}
