import { readDuration, readEpoch, readResetAt } from "./limit_values.ts";

/** Bodies longer than this are not parsed for a reset; real quota errors are a few hundred bytes. */
const MAX_BODY_CHARS = 65_536;

/**
 * When an error body says the account's limit resets, in epoch ms, or null. Read: Codex
 * `usage_limit_reached` (`resets_at` epoch seconds, `resets_in_seconds`), Google `google.rpc.RetryInfo`
 * `retryDelay` (`"34s"`) and the `quotaResetTimeStamp` / `quotaResetDelay` of Cloud Code's ErrorInfo
 * metadata. The latest one wins: the account is usable only once every named limit has refilled.
 */
export function resetFromErrorBody(bodyText: string, now: number): number | null {
  const trimmed = bodyText.trim();
  if (trimmed === "" || trimmed.length > MAX_BODY_CHARS || !/reset|retry/i.test(trimmed)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return null;
  }
  // Google answers some errors as a one-element array.
  if (Array.isArray(parsed)) parsed = parsed[0];
  const error = record(record(parsed)?.error) ?? record(parsed);
  if (error === null) return null;
  let latest: number | null = null;
  const take = (at: number | null) => {
    if (at !== null && at > now) latest = latest === null ? at : Math.max(latest, at);
  };
  take(readEpoch(numberOrString(error.resets_at)));
  const inSeconds = error.resets_in_seconds;
  if (typeof inSeconds === "number" && Number.isFinite(inSeconds) && inSeconds > 0) {
    take(now + Math.round(inSeconds * 1000));
  }
  const details = Array.isArray(error.details) ? error.details.slice(0, 16) : [];
  for (const item of details) {
    const detail = record(item);
    if (detail === null) continue;
    const type = typeof detail["@type"] === "string" ? detail["@type"] : "";
    if (type.endsWith("google.rpc.RetryInfo")) take(delayAt(detail.retryDelay, now));
    const metadata = record(detail.metadata);
    if (metadata === null) continue;
    take(delayAt(metadata.quotaResetDelay, now));
    if (typeof metadata.quotaResetTimeStamp === "string") {
      take(readResetAt(metadata.quotaResetTimeStamp, now));
    }
  }
  return latest;
}

/** A protobuf Duration, as JSON (`"34s"`) or as `{seconds, nanos}`, counted from now. */
function delayAt(value: unknown, now: number): number | null {
  if (typeof value === "string") {
    const ms = readDuration(value);
    return ms === null ? null : now + ms;
  }
  const object = record(value);
  if (object === null) return null;
  const seconds = Number(object.seconds ?? 0);
  const nanos = Number(object.nanos ?? 0);
  if (!Number.isFinite(seconds) || !Number.isFinite(nanos)) return null;
  return now + Math.round(seconds * 1000 + nanos / 1e6);
}

function record(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? value as Record<string, unknown>
    : null;
}

function numberOrString(value: unknown): string | number | null {
  return typeof value === "number" || typeof value === "string" ? value : null;
}
