/**
 * Redaction of credentials and internal addresses from text that leaves the gateway: upstream error
 * text repeats the key it was sent ("Incorrect API key provided: sk-…"), and network errors name
 * internal hosts. Pure and built once per set of secrets; it runs on error paths only, never per chunk.
 */
import { isPublicAddress, parseIpRange } from "./ip_ranges.ts";

/** What a redacted credential becomes. */
export const REDACTED = "[redacted]";
/** What a redacted internal address becomes (in text for API clients). */
export const REDACTED_ADDRESS = "[internal address]";

/** Configured secrets shorter than this are not matched literally: they would hit ordinary words. */
const MIN_SECRET_LENGTH = 8;

/** A credential shape and how to replace it; `keep` names the group kept in front of the value. */
interface Shape {
  readonly pattern: RegExp;
  readonly keep?: number;
}

/** Common key shapes; each requires a digit or a mask so ordinary hyphenated words are left alone. */
const SHAPES: readonly Shape[] = [
  { pattern: /\bsk-(?=[A-Za-z0-9_*-]*[0-9*])[A-Za-z0-9_*-]{8,}/g },
  { pattern: /\bAIza[0-9A-Za-z_-]{20,}/g },
  { pattern: /\b(?:gh[opusr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g },
  { pattern: /\bxox[abposre]-[A-Za-z0-9-]{10,}/g },
  { pattern: /\beyJ[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]*/g },
  { pattern: /\b((?:Bearer|Basic)\s+)(?=[A-Za-z0-9._~+/*-]*[0-9*])[A-Za-z0-9._~+/*-]{8,}=*/gi, keep: 1 },
  // A long hex/base64 run right after a word naming a secret ("api_key=…", "token: …", "key provided: …").
  {
    pattern:
      /\b((?:[\w-]*[_-]|api)?(?:key|token|secret|password|passwd|credentials?|signature)["']?(?:\s+(?:provided|is|was))?\s*[:=]?\s*["']?)(?=[A-Za-z0-9_+/*.=-]*[0-9*]|[A-Za-z0-9_+/*.-]{24})[A-Za-z0-9_+/*.-]{16,}=*/gi,
    keep: 1,
  },
];

/** URLs, bracketed IPv6, bare IPv4 and `localhost`, each with an optional port. */
const URL_PATTERN = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>()]+/gi;
const IPV6_BRACKETED = /\[([0-9A-Fa-f:.]+)\](?::\d{1,5})?/g;
const IPV6_BARE = /(?<![\w:.])((?:[0-9A-Fa-f]{0,4}:){2,7}[0-9A-Fa-f]{0,4})(?![\w:])/g;
const IPV4 = /(?<![\w.])(\d{1,3}(?:\.\d{1,3}){3})(?::\d{1,5})?(?![\w.])/g;
const LOCALHOST = /\b(?:[\w-]+\.)*localhost(?::\d{1,5})?\b/gi;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}

/** One alternation of literals, longest first so a secret containing another is replaced whole. */
function literalPattern(values: Iterable<string>, minLength: number): RegExp | null {
  const unique = [...new Set([...values].filter((v) => v.length >= minLength))];
  if (unique.length === 0) return null;
  unique.sort((a, b) => b.length - a.length);
  return new RegExp(unique.map(escapeRegExp).join("|"), "g");
}

/** The forms a secret takes in text: as is, URL-encoded (a `?key=` query) and JSON-escaped. */
function secretForms(secret: string): string[] {
  const forms = [secret];
  const encoded = encodeURIComponent(secret);
  if (encoded !== secret) forms.push(encoded);
  const escaped = JSON.stringify(secret).slice(1, -1);
  if (escaped !== secret) forms.push(escaped);
  return forms;
}

/** What a Redactor is built from. */
export interface RedactorSource {
  /** Every credential the gateway knows (provider keys, inventory keys, static client keys). */
  readonly secrets: Iterable<string>;
  /** Upstream base URLs (or bare hosts): their host and host:port are internal in client text. */
  readonly upstreamUrls?: Iterable<string>;
}

function hostsOf(urls: Iterable<string>): string[] {
  const hosts: string[] = [];
  for (const text of urls) {
    try {
      const url = new URL(text.includes("://") ? text : `http://${text}`);
      hosts.push(url.host, url.hostname);
    } catch {
      // A malformed URL names no host to hide.
    }
  }
  return hosts;
}

/** True for text that is an IP address outside the public ranges ("[0]" in a JSON path is no address). */
function isInternalIp(text: string): boolean {
  return parseIpRange(text) !== null && !text.includes("/") && !isPublicAddress(text);
}

/** True for a host (name, IPv4 or bracketed IPv6, port stripped) that is loopback, private or local. */
function isInternalHost(host: string, upstreamHosts: ReadonlySet<string>): boolean {
  const lower = host.toLowerCase();
  if (upstreamHosts.has(lower)) return true;
  const bare = lower.replace(/^\[(.*)\]$/, "$1");
  if (bare === "localhost" || bare.endsWith(".localhost")) return true;
  return isInternalIp(bare);
}

/**
 * Replaces configured secrets and anything shaped like a credential with `[redacted]`; for text sent
 * to API clients, also internal addresses (private and loopback IPs, `localhost`, upstream hosts).
 */
export class Redactor {
  /** What it was built from, as plain arrays (a worker thread builds the same redactor from it). */
  readonly source: { readonly secrets: readonly string[]; readonly upstreamUrls: readonly string[] };
  readonly #secrets: RegExp | null;
  readonly #upstreamHosts: ReadonlySet<string>;
  readonly #upstreamPattern: RegExp | null;

  constructor(source: RedactorSource) {
    this.source = { secrets: [...source.secrets], upstreamUrls: [...source.upstreamUrls ?? []] };
    this.#secrets = literalPattern(this.source.secrets.flatMap(secretForms), MIN_SECRET_LENGTH);
    const hosts = hostsOf(this.source.upstreamUrls).map((h) => h.toLowerCase());
    this.#upstreamHosts = new Set(hosts);
    // Host names are matched whole: "api.example.com" must not eat part of "api.example.com.evil".
    const names = [...new Set(hosts)];
    this.#upstreamPattern = names.length === 0 ? null : new RegExp(
      `(?<![\\w.-])(?:${
        names.sort((a, b) => b.length - a.length).map(escapeRegExp).join("|")
      })(?![\\w-]|\\.\\w)`,
      "gi",
    );
  }

  /** Text with every configured secret and credential-shaped string replaced (for stored rows and logs). */
  redact(text: string): string {
    if (text === "") return text;
    const out = this.#secrets === null ? text : text.replace(this.#secrets, REDACTED);
    return redactShapes(out);
  }

  /** `redact`, and internal addresses too: for text an API client (possibly anonymous) receives. */
  redactForClient(text: string): string {
    if (text === "") return text;
    const hosts = this.#upstreamHosts;
    let out = this.redact(text).replace(URL_PATTERN, (url) => {
      try {
        return isInternalHost(new URL(url).host, hosts) || isInternalHost(new URL(url).hostname, hosts)
          ? REDACTED_ADDRESS
          : url;
      } catch {
        return url;
      }
    });
    if (this.#upstreamPattern !== null) out = out.replace(this.#upstreamPattern, REDACTED_ADDRESS);
    return out
      .replace(LOCALHOST, REDACTED_ADDRESS)
      .replace(IPV6_BRACKETED, (match, ip: string) => isInternalIp(ip) ? REDACTED_ADDRESS : match)
      .replace(IPV4, (match, ip: string) => isInternalIp(ip) ? REDACTED_ADDRESS : match)
      .replace(IPV6_BARE, (match, ip: string) => isInternalIp(ip) ? REDACTED_ADDRESS : match);
  }
}

/** Credential-shaped strings replaced, with no configured secrets (console lines, startup errors). */
export function redactShapes(text: string): string {
  let out = text;
  for (const { pattern, keep } of SHAPES) {
    out = out.replace(pattern, (...groups: unknown[]) => {
      const kept = keep === undefined ? "" : String(groups[keep] ?? "");
      return kept + REDACTED;
    });
  }
  return out;
}
