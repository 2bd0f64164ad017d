/**
 * The pure half of the response store: how a Responses request body is expanded from stored state
 * (`previous_response_id`, `item_reference`), what of an answer is stored, and the `input_items` list page.
 * The items are Responses wire items, kept as the client sent and received them.
 */
import { GatewayError } from "../model/mod.ts";
import { isRecord } from "../wire/shared/mod.ts";

/** One Responses input or output item, as JSON. */
export type WireItem = Record<string, unknown>;

/** What a stored response stands for in a later request. */
export interface StoredTurn {
  /** Every input item the response answered (earlier turns included). */
  readonly input: readonly WireItem[];
  /** The response's output items. */
  readonly output: readonly WireItem[];
}

/** Reads stored state for one caller (null: unknown, expired, or another caller's). */
export interface StoredLookup {
  turn(id: string): StoredTurn | null;
  item(id: string): WireItem | null;
  /** Hears each item put into the body from stored state (as it is sent again). */
  replayed?(item: WireItem): void;
}

/** True when a body names stored state (a previous response or an item reference). */
export function namesStoredState(body: unknown): boolean {
  if (!isRecord(body)) return false;
  if (typeof body.previous_response_id === "string") return true;
  return Array.isArray(body.input) &&
    body.input.some((item) => isRecord(item) && item.type === "item_reference");
}

/** The input items of a body (a string input is one user message). */
export function inputItemsOf(input: unknown): WireItem[] {
  if (typeof input === "string") {
    return [{ type: "message", role: "user", content: [{ type: "input_text", text: input }] }];
  }
  return Array.isArray(input) ? input.filter(isRecord) : [];
}

/**
 * The body with stored state put in: `previous_response_id` becomes that response's input and output ahead
 * of the new input, and each `item_reference` the item it names. Unknown ids get the OpenAI API's own errors.
 */
export function expandStoredState(
  body: Record<string, unknown>,
  lookup: StoredLookup,
): Record<string, unknown> {
  const { previous_response_id: previousId, ...rest } = body;
  const items: unknown[] = typeof rest.input === "string" ? inputItemsOf(rest.input) : [
    ...(Array.isArray(rest.input) ? rest.input : []),
  ];
  const replay = (item: WireItem): WireItem => {
    const again = replayable(item);
    lookup.replayed?.(again);
    return again;
  };
  const expanded = items.map((item, i) => {
    if (!isRecord(item) || item.type !== "item_reference") return item;
    const id = typeof item.id === "string" ? item.id : "";
    const found = id === "" ? null : lookup.item(id);
    if (found === null) throw itemNotFound(id, i);
    return replay(found);
  });
  if (typeof previousId !== "string") return { ...rest, input: expanded };
  const turn = lookup.turn(previousId);
  if (turn === null) throw previousNotFound(previousId);
  return { ...rest, input: [...turn.input.map(replay), ...turn.output.map(replay), ...expanded] };
}

/**
 * A stored item as it is sent again: without the `id` and `status` the gateway's answer gave it, which an
 * upstream that did not store the item would look up and not find. Reasoning without encrypted content can
 * only be found by its id (on a Responses upstream that stored it), so it keeps it.
 */
function replayable(item: WireItem): WireItem {
  if (item.type === "reasoning" && typeof item.encrypted_content !== "string") return item;
  const { id: _id, status: _status, ...rest } = item;
  return rest;
}

/** The body of the OpenAI API's own 404 for a response id (GET, DELETE, input_items). */
export function responseNotFound(id: string): GatewayError {
  const message = `Response with id '${id}' not found.`;
  return new GatewayError(404, "not_found", message, {
    fixedBody: { error: { message, type: "invalid_request_error", param: null, code: null } },
  });
}

function previousNotFound(id: string): GatewayError {
  const message = `Previous response with id '${id}' not found.`;
  return new GatewayError(400, "invalid_request", message, {
    fixedBody: {
      error: {
        message,
        type: "invalid_request_error",
        param: "previous_response_id",
        code: "previous_response_not_found",
      },
    },
  });
}

function itemNotFound(id: string, index: number): GatewayError {
  const message = `Item with id '${id}' not found.`;
  return new GatewayError(400, "invalid_request", message, {
    fixedBody: { error: { message, type: "invalid_request_error", param: `input[${index}]`, code: null } },
  });
}

/** Item id prefixes by type, for input items the client sent without one (input_items lists an id for each). */
const ID_PREFIXES: Readonly<Record<string, string>> = {
  message: "msg",
  function_call: "fc",
  function_call_output: "fco",
  reasoning: "rs",
};

/** The input items with an id each: the client's own, or one derived from the response id and position. */
export function withItemIds(items: readonly WireItem[], responseId: string): WireItem[] {
  const tail = responseId.replace(/^resp_/, "");
  return items.map((item, i) => {
    if (typeof item.id === "string" && item.id !== "") return item;
    const type = typeof item.type === "string" ? item.type : "message";
    return { id: `${ID_PREFIXES[type] ?? "item"}_${tail}_in${i}`, ...item, type };
  });
}

/**
 * Every string of an item redacted as request logs are (credentials and their shapes), except what must
 * come back byte for byte: the opaque fields (encrypted reasoning, ids) and base64 data URLs (an image, a
 * file). A data URL's payload is binary data, not text: credential shapes turn up in it by chance (one in
 * about 5.6 million characters of random base64, so most screenshots had one), and a redacted one was a
 * broken image in the conversation sent on; no credential with a `-` or `_` (`sk-`, `ghp_`) can be in it.
 * Redacting one also cost the serving thread about 20 ms a MB.
 */
export function redactItem<T>(value: T, redact: (text: string) => string): T {
  return redactValue(value, redact, "") as T;
}

/** Fields kept byte for byte whatever they hold (opaque to the client, or ids it names later). */
export const KEPT_AS_IS: ReadonlySet<string> = new Set(["encrypted_content", "id", "call_id"]);

/** A data URL with a base64 payload of nothing but the base64 alphabet (line breaks allowed). */
const BASE64_DATA_URL = /^data:[\w.+-]+\/[\w.+-]+(?:;[\w.+-]+=[\w.+-]+)*;base64,[A-Za-z0-9+/\r\n]*={0,2}$/;
const DATA_URL_HEAD = /^data:[\w.+-]+\/[\w.+-]+(?:;[\w.+-]+=[\w.+-]+)*;base64,/;
const BASE64_RUN = /^[A-Za-z0-9+/\r\n]*$/;

/**
 * Whether the text `pieces` join to is a base64 data URL (as `BASE64_DATA_URL` tests the whole), read
 * piece by piece: a long string is held in pieces (src/long_strings.ts), and testing the joined string
 * would make it whole in one step. The data URL's head is looked for in the first piece (a piece is a
 * million characters or more but for the last).
 */
export function isBase64DataUrl(pieces: readonly string[]): boolean {
  const head = DATA_URL_HEAD.exec(pieces[0] ?? "");
  if (head === null) return false;
  const runs = [pieces[0].slice(head[0].length), ...pieces.slice(1)];
  // Up to two `=` of padding at the very end, which may straddle the last pieces.
  let padding = 0;
  for (let i = runs.length - 1; i >= 0; i--) {
    let end = runs[i].length;
    while (end > 0 && runs[i].charCodeAt(end - 1) === 0x3d && padding <= 2) {
      end--;
      padding++;
    }
    runs[i] = runs[i].slice(0, end);
    if (end > 0) break;
  }
  return padding <= 2 && runs.every((run) => BASE64_RUN.test(run));
}

/** One string of an item (under `key`) as `redactItem` stores it. */
export function redactText(text: string, key: string, redact: (text: string) => string): string {
  return KEPT_AS_IS.has(key) || BASE64_DATA_URL.test(text) ? text : redact(text);
}

function redactValue(value: unknown, redact: (text: string) => string, key: string): unknown {
  if (typeof value === "string") return redactText(value, key, redact);
  if (Array.isArray(value)) return value.map((v) => redactValue(v, redact, ""));
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = redactValue(v, redact, k);
  return out;
}

/** How `GET /v1/responses/{id}/input_items` pages. */
export interface ItemsQuery {
  readonly limit: number;
  readonly order: "asc" | "desc";
  readonly after?: string;
}

/** Reads `limit` (1–100, default 20), `order` (`asc`|`desc`, default desc) and `after` from a query. */
export function itemsQuery(get: (name: string) => string | undefined): ItemsQuery {
  const limitText = get("limit");
  const limit = limitText === undefined ? 20 : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw new GatewayError(400, "invalid_request", "limit must be an integer from 1 to 100", {
      field: "limit",
    });
  }
  const order = get("order") ?? "desc";
  if (order !== "asc" && order !== "desc") {
    throw new GatewayError(400, "invalid_request", 'order must be "asc" or "desc"', { field: "order" });
  }
  const after = get("after");
  return { limit, order, ...(after ? { after } : {}) };
}

/** One page of input items as the API's list object. */
export function itemsPage(items: readonly WireItem[], query: ItemsQuery): Record<string, unknown> {
  const ordered = query.order === "asc" ? items : [...items].reverse();
  const start = query.after === undefined ? 0 : ordered.findIndex((item) => item.id === query.after) + 1;
  const data = ordered.slice(start, start + query.limit);
  return {
    object: "list",
    data,
    first_id: data[0]?.id ?? null,
    last_id: data.at(-1)?.id ?? null,
    has_more: start + query.limit < ordered.length,
  };
}
