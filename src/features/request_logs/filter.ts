import type { RequestCursor, RequestFilter, StatusClass } from "../../storage/mod.ts";
import { invalidField } from "../field_error.ts";

/** The query parameters a request-log filter reads (dashboard section, export, `gateway logs`). */
export const FILTER_PARAMS = [
  "from",
  "to",
  "model",
  "provider",
  "account",
  "key",
  "status",
  "surface",
  "stream",
  "q",
] as const;

/** Client surfaces a filter may name (the usage rows' client_format values). */
const SURFACES = ["chat_completions", "responses", "messages", "generate_content", "local_runner"];

/** Longest text search: the search scans every kept body, so a needle is kept short. */
const MAX_SEARCH_CHARS = 200;

/**
 * A filter from query parameters, every one optional: `from`/`to` (epoch ms or an ISO date/time), `model`,
 * `provider`, `account`, `key` (a key id or name, or `none` for keyless requests),
 * `status` (`2xx`, `4xx`, `5xx`, … or `0` for no status), `surface`, `stream` (`true`/`false`), `q` (text in
 * the kept bodies). A bad value is a 400 that names the parameter, never an ignored filter.
 */
export function parseRequestFilter(
  query: URLSearchParams,
  keyIdOf: (name: string) => number | undefined,
): RequestFilter {
  const text = (name: string) => {
    const value = query.get(name)?.trim();
    return value === undefined || value === "" ? undefined : value;
  };
  const filter: {
    -readonly [K in keyof RequestFilter]: RequestFilter[K];
  } = {};
  const from = text("from");
  if (from !== undefined) filter.from = timeParam("from", from);
  const to = text("to");
  if (to !== undefined) filter.to = timeParam("to", to);
  if (filter.from !== undefined && filter.to !== undefined && filter.from >= filter.to) {
    throw invalidField("to", "to must be later than from");
  }
  filter.model = text("model");
  filter.providerId = text("provider");
  filter.accountId = text("account");
  const key = text("key");
  if (key !== undefined) filter.clientKeyId = keyParam(key, keyIdOf);
  const status = text("status");
  if (status !== undefined) filter.statusClass = statusParam(status);
  const surface = text("surface");
  if (surface !== undefined) {
    if (!SURFACES.includes(surface)) {
      throw invalidField(
        "surface",
        `surface must be one of ${SURFACES.join(", ")} (got "${surface.slice(0, 40)}")`,
      );
    }
    filter.clientFormat = surface;
  }
  const stream = text("stream");
  if (stream !== undefined) {
    if (stream !== "true" && stream !== "false") throw invalidField("stream", "stream must be true or false");
    filter.streamed = stream === "true";
  }
  const q = query.get("q") ?? "";
  if (q.length > MAX_SEARCH_CHARS) {
    throw invalidField("q", `the text search is at most ${MAX_SEARCH_CHARS} characters`);
  }
  if (q.trim() !== "") filter.text = q;
  for (const name of Object.keys(filter) as (keyof RequestFilter)[]) {
    if (filter[name] === undefined) delete filter[name];
  }
  return filter;
}

/** A page cursor as the API passes it: `<ts>.<id>` of the last row of the previous page. */
export function parseCursor(value: string | null): RequestCursor | null {
  if (value === null || value === "") return null;
  const match = /^(\d{1,16})\.(\d{1,16})$/.exec(value);
  if (!match) throw invalidField("cursor", "cursor must be the next_cursor of the previous page");
  return { ts: Number(match[1]), id: Number(match[2]) };
}

/** The cursor as text for the next page's `cursor` parameter. */
export function cursorText(cursor: RequestCursor | null): string | null {
  return cursor === null ? null : `${cursor.ts}.${cursor.id}`;
}

function timeParam(name: string, value: string): number {
  const ms = /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  if (!Number.isFinite(ms)) {
    throw invalidField(
      name,
      `${name} must be epoch milliseconds or an ISO date (got "${value.slice(0, 40)}")`,
    );
  }
  return ms;
}

function keyParam(value: string, keyIdOf: (name: string) => number | undefined): number | null {
  if (value === "none") return null;
  if (/^\d{1,15}$/.test(value)) return Number(value);
  const id = keyIdOf(value);
  if (id === undefined) {
    throw invalidField("key", `no key is named "${value.slice(0, 60)}" (give its name, id, or none)`);
  }
  return id;
}

function statusParam(value: string): StatusClass {
  const match = /^([0-5])(?:xx)?$/i.exec(value);
  if (!match || (match[1] !== "0" && !/xx$/i.test(value))) {
    throw invalidField("status", `status must be 1xx, 2xx, 3xx, 4xx, 5xx or 0 (got "${value.slice(0, 20)}")`);
  }
  return Number(match[1]) as StatusClass;
}
