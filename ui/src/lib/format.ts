/** Number, money, time and duration formatting used across screens. */

const integer = new Intl.NumberFormat("en-US");
const compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });

/** 12,345 */
export function formatInt(value: unknown): string {
  const n = toNumber(value);
  return n === null ? "–" : integer.format(Math.round(n));
}

/** 1.2M (exact below 10,000). */
export function formatCompact(value: unknown): string {
  const n = toNumber(value);
  if (n === null) return "–";
  return Math.abs(n) < 10_000 ? integer.format(Math.round(n)) : compact.format(n);
}

/** $1.23, with more precision for tiny amounts so a cheap request is not shown as $0.00. */
export function formatCost(value: unknown): string {
  const n = toNumber(value);
  if (n === null) return "–";
  if (n === 0) return "$0.00";
  const abs = Math.abs(n);
  const digits = abs >= 1 ? 2 : abs >= 0.01 ? 3 : abs >= 0.0001 ? 5 : 7;
  return `$${n.toFixed(digits).replace(/(\.\d\d\d*?)0+$/, "$1")}`;
}

/** 97.5% from a ratio (0..1) or a percentage (>1). */
export function formatPercent(value: unknown, isRatio = false): string {
  const n = toNumber(value);
  if (n === null) return "–";
  const pct = isRatio ? n * 100 : n;
  return `${pct >= 10 || pct === 0 ? Math.round(pct) : pct.toFixed(1)}%`;
}

/** 830 ms, 2.4 s. */
export function formatLatency(ms: unknown): string {
  const n = toNumber(ms);
  if (n === null) return "–";
  return n < 1000 ? `${Math.round(n)} ms` : `${(n / 1000).toFixed(n < 10_000 ? 2 : 1)} s`;
}

/** 4m 05s, 1h 02m, 12s. */
export function formatRemaining(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, "0")}s`;
  const h = Math.floor(m / 60);
  return `${h}h ${String(m % 60).padStart(2, "0")}m`;
}

/** Accepts epoch seconds, epoch milliseconds or ISO strings. */
export function toDate(value: unknown): Date | null {
  if (value instanceof Date) return value;
  if (typeof value === "number" && Number.isFinite(value)) {
    return new Date(value < 1e12 ? value * 1000 : value);
  }
  if (typeof value === "string" && value !== "") {
    const numeric = Number(value);
    if (Number.isFinite(numeric)) return toDate(numeric);
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? null : date;
  }
  return null;
}

/** 2026-01-31 14:02:09 in local time. */
export function formatDateTime(value: unknown): string {
  const d = toDate(value);
  if (!d) return "–";
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${
    pad(d.getMinutes())
  }:${pad(d.getSeconds())}`;
}

/** 14:02:09 */
export function formatTime(value: unknown): string {
  const d = toDate(value);
  return d ? d.toLocaleTimeString("en-GB", { hour12: false }) : "–";
}

/** "just now", "5m ago", "3h ago", "2d ago". */
export function formatAgo(value: unknown, now = Date.now()): string {
  const d = toDate(value);
  if (!d) return "–";
  const s = Math.round((now - d.getTime()) / 1000);
  if (s < 45) return "just now";
  if (s < 3600) return `${Math.round(s / 60)}m ago`;
  if (s < 86_400) return `${Math.round(s / 3600)}h ago`;
  return `${Math.round(s / 86_400)}d ago`;
}

/** A finite number from a number or numeric string, else null. */
export function toNumber(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "string" && value.trim() !== "") {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}
