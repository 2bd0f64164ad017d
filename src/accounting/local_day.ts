/** Local calendar fields of an instant in one time zone. */
interface LocalFields {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
// Offset changes are at most a few hours; searching this far either side always finds the boundary.
const SEARCH_WINDOW_MS = 6 * HOUR_MS;

// Building an Intl.DateTimeFormat is costly, and budget checks ask on every request.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let fmt = formatters.get(timeZone);
  if (fmt === undefined) {
    fmt = new Intl.DateTimeFormat("en-US", {
      // An empty zone means the server's own zone.
      timeZone: timeZone === "" ? undefined : timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(timeZone, fmt);
  }
  return fmt;
}

function localFields(epochMs: number, timeZone: string): LocalFields {
  const fields: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(epochMs)) {
    if (part.type !== "literal") fields[part.type] = Number(part.value);
  }
  return {
    year: fields.year,
    month: fields.month,
    day: fields.day,
    hour: fields.hour % 24,
    minute: fields.minute,
    second: fields.second,
  };
}

// A local date as a sortable number (days since the epoch of the same calendar date in UTC).
function dayNumber(fields: LocalFields): number {
  return Math.floor(Date.UTC(fields.year, fields.month - 1, fields.day) / DAY_MS);
}

/** Whether `timeZone` is an IANA zone name this runtime knows (the empty string means the server zone). */
export function isValidTimeZone(timeZone: string): boolean {
  if (timeZone === "") return true;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
    return true;
  } catch {
    return false;
  }
}

/**
 * The first instant (epoch ms) of the local day numbered `targetDay` (days since 1970-01-01 as a calendar
 * date, see localDayNumber). Usually local 00:00; where a DST jump skips midnight, the first instant that
 * exists on that date.
 */
export function startOfLocalDay(targetDay: number, timeZone: string): number {
  const naive = targetDay * DAY_MS;
  // Two passes of "subtract the zone's offset" land on local midnight whenever it exists.
  let guess = naive - offsetMs(naive, timeZone);
  guess = naive - offsetMs(guess, timeZone);
  const at = localFields(guess, timeZone);
  if (dayNumber(at) === targetDay && at.hour === 0 && at.minute === 0 && at.second === 0) {
    if (dayNumber(localFields(guess - 1000, timeZone)) < targetDay) return guess;
  }
  // Midnight is missing or repeated: find the first second whose local date is the target day.
  let low = guess - SEARCH_WINDOW_MS;
  let high = guess + SEARCH_WINDOW_MS;
  while (high - low > 1000) {
    const mid = low + Math.floor((high - low) / 2000) * 1000;
    if (dayNumber(localFields(mid, timeZone)) >= targetDay) high = mid;
    else low = mid;
  }
  return high;
}

// Local wall-clock time minus UTC at an instant, to the second.
function offsetMs(epochMs: number, timeZone: string): number {
  const f = localFields(epochMs, timeZone);
  const wall = Date.UTC(f.year, f.month - 1, f.day, f.hour, f.minute, f.second);
  return wall - Math.floor(epochMs / 1000) * 1000;
}

/** The local calendar date of an instant in `timeZone`, as days since 1970-01-01 (that date in UTC). */
export function localDayNumber(nowMs: number, timeZone: string): number {
  return dayNumber(localFields(nowMs, timeZone));
}

/** The server's own time zone, used when reporting_timezone is empty. */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/** The start of the local day containing `nowMs` in `timeZone`, as epoch ms; correct across DST. */
export function dayStartMs(nowMs: number, timeZone: string): number {
  return startOfLocalDay(dayNumber(localFields(nowMs, timeZone)), timeZone);
}

/** Whole seconds from `nowMs` to the next local midnight in `timeZone` (at least 1); for Retry-After. */
export function secondsUntilMidnight(nowMs: number, timeZone: string): number {
  const next = startOfLocalDay(dayNumber(localFields(nowMs, timeZone)) + 1, timeZone);
  return Math.max(Math.ceil((next - nowMs) / 1000), 1);
}
