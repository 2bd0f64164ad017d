/**
 * IP addresses and CIDR ranges (IPv4 and IPv6) as numbers, for deciding which peers are trusted proxies.
 * IPv4-mapped IPv6 addresses (`::ffff:10.0.0.1`) count as their IPv4 address.
 */

/** One range: a family, its first address and its prefix length. */
interface IpRange {
  readonly v6: boolean;
  readonly base: bigint;
  readonly bits: number;
}

/** An address as a number, or null when the text is not an IP address. */
function parseAddress(text: string): { v6: boolean; value: bigint } | null {
  const v4 = parseIpv4(text);
  if (v4 !== null) return { v6: false, value: v4 };
  const v6 = parseIpv6(text);
  if (v6 === null) return null;
  // ::ffff:a.b.c.d is an IPv4 peer seen through a dual-stack socket.
  if (v6 >> 32n === 0xffffn) return { v6: false, value: v6 & 0xffffffffn };
  return { v6: true, value: v6 };
}

function parseIpv4(text: string): bigint | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  let value = 0n;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return null;
    value = (value << 8n) | BigInt(Number(part));
  }
  return value;
}

function parseIpv6(text: string): bigint | null {
  const bare = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  if (!/^[0-9a-fA-F:.]+$/.test(bare) || bare.split("::").length > 2) return null;
  const [head, tail = ""] = bare.includes("::") ? bare.split("::") : [bare];
  const groups = (side: string): bigint[] | null => {
    if (side === "") return [];
    const out: bigint[] = [];
    const pieces = side.split(":");
    for (const [i, piece] of pieces.entries()) {
      if (i === pieces.length - 1 && piece.includes(".")) {
        const v4 = parseIpv4(piece);
        if (v4 === null) return null;
        out.push(v4 >> 16n, v4 & 0xffffn);
      } else if (/^[0-9a-fA-F]{1,4}$/.test(piece)) out.push(BigInt(parseInt(piece, 16)));
      else return null;
    }
    return out;
  };
  const left = groups(head);
  const right = groups(tail);
  if (left === null || right === null) return null;
  const missing = 8 - left.length - right.length;
  if (bare.includes("::") ? missing < 1 : missing !== 0) return null;
  let value = 0n;
  for (const group of [...left, ...Array(missing).fill(0n), ...right]) value = (value << 16n) | group;
  return value;
}

/** Parses `address` or `address/bits`; null when it is neither. */
export function parseIpRange(text: string): IpRange | null {
  const [addressText, bitsText, extra] = text.trim().split("/");
  if (extra !== undefined) return null;
  const address = parseAddress(addressText);
  if (address === null) return null;
  const width = address.v6 ? 128 : 32;
  const bits = bitsText === undefined ? width : /^\d{1,3}$/.test(bitsText) ? Number(bitsText) : NaN;
  if (!(bits >= 0 && bits <= width)) return null;
  const shift = BigInt(width - bits);
  return { v6: address.v6, base: (address.value >> shift) << shift, bits };
}

/** A predicate over peer addresses for a list of ranges; an empty list trusts nobody. */
export function ipMatcher(ranges: readonly string[]): (address: string) => boolean {
  const parsed = ranges.map((text) => {
    const range = parseIpRange(text);
    if (range === null) throw new Error(`"${text}" is not an IP address or CIDR range`);
    return range;
  });
  if (parsed.length === 0) return () => false;
  return (text) => {
    const address = parseAddress(text);
    if (address === null) return false;
    return parsed.some((range) => {
      if (range.v6 !== address.v6) return false;
      const shift = BigInt((range.v6 ? 128 : 32) - range.bits);
      return (address.value >> shift) << shift === range.base;
    });
  };
}

/**
 * Ranges no public service lives in: unspecified, loopback, private, CGNAT, link-local, ULA, multicast,
 * reserved, documentation and benchmarking (RFC 6890), plus IPv4-compatible IPv6 (which could smuggle
 * a private IPv4 address). IPv4-mapped IPv6 is judged as its IPv4 address by the parser.
 */
export const NON_PUBLIC_RANGES: readonly string[] = [
  "0.0.0.0/8",
  "10.0.0.0/8",
  "100.64.0.0/10",
  "127.0.0.0/8",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.0.0.0/24",
  "192.0.2.0/24",
  "192.168.0.0/16",
  "198.18.0.0/15",
  "198.51.100.0/24",
  "203.0.113.0/24",
  "224.0.0.0/4",
  "240.0.0.0/4",
  "::/96",
  "::1/128",
  "64:ff9b:1::/48",
  "100::/64",
  "2001:db8::/32",
  "fc00::/7",
  "fe80::/10",
  "fec0::/10",
  "ff00::/8",
];

let nonPublic: ((address: string) => boolean) | undefined;

/** True for an IP address outside every non-public range; false for those inside and for non-addresses. */
export function isPublicAddress(address: string): boolean {
  // Built on first use, not at import time (house rule 2).
  nonPublic ??= ipMatcher(NON_PUBLIC_RANGES);
  return parseAddress(address) !== null && !nonPublic(address);
}
