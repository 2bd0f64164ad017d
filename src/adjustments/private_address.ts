function ipv4(host: string): number[] | undefined {
  const parts = host.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return undefined;
  const bytes = parts.map(Number);
  return bytes.every((b) => b <= 255) ? bytes : undefined;
}

function privateIpv4([a, b]: number[]): boolean {
  return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127) || a >= 224;
}

function privateIpv6(host: string): boolean {
  const h = host.toLowerCase();
  if (h === "::" || h === "::1") return true;
  // IPv4-mapped (::ffff:127.0.0.1, or the hex form the URL parser produces: ::ffff:7f00:1).
  const mapped = /^::ffff:(.+)$/.exec(h);
  if (mapped) {
    const v4 = ipv4(mapped[1]);
    if (v4) return privateIpv4(v4);
    const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(mapped[1]);
    if (hex) {
      const hi = parseInt(hex[1], 16);
      const lo = parseInt(hex[2], 16);
      return privateIpv4([hi >> 8, hi & 255, lo >> 8, lo & 255]);
    }
    return true;
  }
  // fc00::/7 unique local, fe80::/10 link-local, ff00::/8 multicast.
  return /^f[cd]/.test(h) || /^fe[89ab]/.test(h) || h.startsWith("ff");
}

/**
 * True when a URL's host is loopback, private, link-local, CGNAT, multicast or `localhost`, judged on
 * the literal host only. Names are not resolved (that needs DNS, which this pure check cannot do), so
 * a public name pointing at a private address is not caught here.
 */
export function isPrivateHost(url: URL): boolean {
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (host.startsWith("[") && host.endsWith("]")) return privateIpv6(host.slice(1, -1));
  const v4 = ipv4(host);
  return v4 ? privateIpv4(v4) : false;
}
