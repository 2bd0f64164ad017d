/**
 * W3C Trace Context (https://www.w3.org/TR/trace-context/): reading an incoming `traceparent` and
 * `tracestate`, and writing the pair for a call the gateway makes. Pure. An invalid `traceparent` is
 * ignored as a whole (the gateway starts a new trace) and then `tracestate` is ignored too, as the
 * specification requires; an invalid `tracestate` alone is dropped without losing the parent.
 */

/** The propagated part of a span: who the parent is and whether it was sampled. */
export interface TraceContext {
  /** 32 lowercase hex digits, not all zero. */
  readonly traceId: string;
  /** 16 lowercase hex digits, not all zero. */
  readonly spanId: string;
  /** The trace-flags byte; bit 0 is "sampled". */
  readonly flags: number;
  /** The vendor entries, as received (already validated), or "" when none. */
  readonly traceState: string;
  /** True when the context came from another process (an incoming header). */
  readonly remote: boolean;
}

/** The trace-flags bit that says the caller recorded (sampled) its span. */
export const FLAG_SAMPLED = 0x01;

/** The most list members a `tracestate` may carry. */
export const MAX_TRACESTATE_MEMBERS = 32;

const TRACE_ID = /^[0-9a-f]{32}$/;
const SPAN_ID = /^[0-9a-f]{16}$/;
const HEX2 = /^[0-9a-f]{2}$/;
const ZERO_TRACE = "0".repeat(32);
const ZERO_SPAN = "0".repeat(16);
// tracestate keys: a simple key, or tenant@system (§3.3.1.3.1); values: printable ASCII without ',' '='.
const SIMPLE_KEY = /^[a-z][a-z0-9_\-*/]{0,255}$/;
const MULTI_TENANT_KEY = /^[a-z0-9][a-z0-9_\-*/]{0,240}@[a-z][a-z0-9_\-*/]{0,13}$/;
const VALUE = /^[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e]$/;

/** True for a valid trace id (lowercase hex, not all zero). */
export function isValidTraceId(id: string): boolean {
  return TRACE_ID.test(id) && id !== ZERO_TRACE;
}

/** True for a valid span id (lowercase hex, not all zero). */
export function isValidSpanId(id: string): boolean {
  return SPAN_ID.test(id) && id !== ZERO_SPAN;
}

/**
 * The parts of a `traceparent` header, or null when it is invalid. Version `00` must be exactly
 * 55 characters; a later version is read by its first four fields, may carry more after a `-`, and
 * `ff` is never valid (§3.2.4).
 */
export function parseTraceparent(header: string): Omit<TraceContext, "traceState" | "remote"> | null {
  const value = header.trim();
  if (value.length < 55) return null;
  const version = value.slice(0, 2);
  if (!HEX2.test(version) || version === "ff") return null;
  if (version === "00" && value.length !== 55) return null;
  if (version !== "00" && value.length > 55 && value[55] !== "-") return null;
  if (value[2] !== "-" || value[35] !== "-" || value[52] !== "-") return null;
  const traceId = value.slice(3, 35);
  const spanId = value.slice(36, 52);
  const flags = value.slice(53, 55);
  if (!isValidTraceId(traceId) || !isValidSpanId(spanId) || !HEX2.test(flags)) return null;
  // A later version may define more flag bits; only "sampled" is understood, the rest are not passed on.
  const bits = parseInt(flags, 16);
  return { traceId, spanId, flags: version === "00" ? bits : bits & FLAG_SAMPLED };
}

/**
 * The `tracestate` list after validation, or "" when it is invalid or empty. Empty members are
 * allowed and dropped; more than 32 members or a duplicated key makes the whole header invalid.
 */
export function parseTracestate(header: string | null | undefined): string {
  if (header === null || header === undefined) return "";
  const members: string[] = [];
  const keys = new Set<string>();
  for (const raw of header.split(",")) {
    const member = raw.trim();
    if (member === "") continue;
    const eq = member.indexOf("=");
    if (eq <= 0) return "";
    const key = member.slice(0, eq);
    const value = member.slice(eq + 1);
    if (!(SIMPLE_KEY.test(key) || MULTI_TENANT_KEY.test(key)) || !VALUE.test(value)) return "";
    if (keys.has(key)) return "";
    keys.add(key);
    members.push(`${key}=${value}`);
  }
  if (members.length > MAX_TRACESTATE_MEMBERS) return "";
  return members.join(",");
}

/**
 * The incoming trace context from a request's headers, or null when there is none or it is invalid.
 * Several `tracestate` headers arrive joined with "," by the Fetch API, which is what the spec asks.
 */
export function extractTraceContext(
  get: (name: string) => string | null | undefined,
): TraceContext | null {
  const parent = get("traceparent");
  if (parent === null || parent === undefined) return null;
  const parsed = parseTraceparent(parent);
  if (parsed === null) return null;
  return { ...parsed, traceState: parseTracestate(get("tracestate")), remote: true };
}

/** The `traceparent` value for a call made as this span (always version 00). */
export function formatTraceparent(traceId: string, spanId: string, sampled: boolean): string {
  return `00-${traceId}-${spanId}-${sampled ? "01" : "00"}`;
}

/** The headers an outgoing call carries: `traceparent`, and `tracestate` when there is one. */
export function traceHeaders(
  traceId: string,
  spanId: string,
  sampled: boolean,
  traceState: string,
): Record<string, string> {
  const headers: Record<string, string> = { traceparent: formatTraceparent(traceId, spanId, sampled) };
  if (traceState !== "") headers.tracestate = traceState;
  return headers;
}
