import { GatewayError } from "../model/mod.ts";
import { nextTurn } from "../next_turn.ts";
import { checkJsonShape } from "../wire/mod.ts";
import { BIG_BODY_BYTES } from "./body_lane.ts";
import type { JsonParser } from "./json_parser.ts";
import type { ParsedJson } from "../long_strings.ts";

/**
 * Largest request body accepted (base64 images make big bodies legitimate; abuse stops here). It is
 * Anthropic's own request limit; a body this size costs the serving loop steps of at most about 45 ms
 * (docs/limits.md, "Big bodies and the event loop").
 */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;

/** Bodies with more values than this yield to the event loop before they are validated. */
const PACE_AFTER_VALUES = 2_000;
/**
 * A body's bytes are read this many at a time before other requests get a turn: chunks already in the
 * server's buffers come one after the other without one, and reading 30 MiB held the loop for 45-65 ms.
 * A slice is 10-15 ms of reading here (4 MiB ones took 13-23 ms).
 */
const READ_SLICE_BYTES = 2 * 1024 * 1024;

/**
 * Longest wait for the next bytes of a big body. It holds the big-body lane while it uploads (body_lane.ts),
 * and every other big body waits behind it: a client that stops sending must not hold it for ever.
 */
export const BODY_STALL_MS = 30_000;

/**
 * Slowest average pace a big body may keep once BODY_STALL_MS have passed: a client that trickles a byte
 * just often enough to beat the stall limit would otherwise hold the lane for as long as it liked. At this
 * pace (half a megabit a second) a maximum body takes about nine minutes; the allowance grows with every
 * byte that arrives, so a slow start is made up by a faster rest.
 */
export const MIN_BODY_BYTES_PER_SECOND = 64 * 1024;

/** Decoding without `stream: true` keeps no state between calls, so one decoder serves every request. */
const UTF8 = new TextDecoder();

/**
 * Waits until a body of `bytes` may be read (the body lane, `body_lane.ts`); called before reading a body
 * declared bigger than BIG_BODY_BYTES, or with the limit once an undeclared one grows past it.
 */
export type AdmitBigBody = (bytes: number) => Promise<void>;

/** How bodies over BIG_BODY_BYTES are read: one lane at a time, parsed off the serving thread. */
export interface BigBodies {
  readonly admit: AdmitBigBody;
  readonly parser: JsonParser;
  /** Longest wait for a big body's next bytes (default BODY_STALL_MS; tests pass less). */
  readonly stallMs?: number;
  /** Slowest average pace of a big body after its first `stallMs` (default MIN_BODY_BYTES_PER_SECOND). */
  readonly minBytesPerSecond?: number;
}

/**
 * Reads a JSON request body with a size cap, a nesting cap (MAX_JSON_DEPTH: deeper bodies overflow
 * the stack of whatever walks or re-serialises them later) and a cap on its number of values
 * (MAX_JSON_VALUES: validation time grows with it, and it runs in one go); errors are 400/413
 * GatewayErrors with clear messages, and a client that goes away mid-body is a 499 client_closed (its
 * input was never wrong, only unfinished). A body over the limit is refused before it is buffered: by its
 * declared length, or, without one, as soon as what arrived passes the limit. With `big`, a body over
 * BIG_BODY_BYTES waits for the body lane and is decoded and parsed on the parser's thread (see
 * `readJsonRequest` for its long strings).
 */
export async function readJsonBody(
  request: Request,
  limit = MAX_BODY_BYTES,
  big?: BigBodies,
): Promise<unknown> {
  return (await readJsonRequest(request, limit, big)).value;
}

/** A request body's value, and, for a body parsed off the serving thread, the pieces of its long strings. */
export type JsonRequest = ParsedJson;

/**
 * `readJsonBody`, with the pieces of a big body's long strings (src/long_strings.ts): whoever encodes the
 * value again (for its upstream, for the request log) reads those strings through them.
 */
export async function readJsonRequest(
  request: Request,
  limit = MAX_BODY_BYTES,
  big?: BigBodies,
): Promise<JsonRequest> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw tooLarge(limit);
  if (big && declared > BIG_BODY_BYTES) await big.admit(declared);
  const read = await readBody(request, declared, limit, big);
  if (typeof read !== "string" && big) return await parseOffLoop(request, read, big.parser);
  // Without a parser, a big body is decoded and parsed here, a turn apart (each is one step of tens of
  // ms), so requests that arrived meanwhile are served between them.
  let text = read;
  if (typeof text !== "string") {
    await nextTurn();
    text = UTF8.decode(text);
  }
  if (text.trim() === "") throw emptyBody();
  if (text.length > BIG_BODY_BYTES) await nextTurn();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw notJson(request, error);
  }
  const values = checkJsonShape(value);
  // Validating a body with many values runs in one go too (tens of ms at the value cap).
  if (values > PACE_AFTER_VALUES || text.length > BIG_BODY_BYTES) await nextTurn();
  return { value };
}

/**
 * A big body parsed on the parser's thread; its refusals are the same as on this one. Its long strings
 * come a piece per turn and are joined here into ropes (src/long_strings.ts): received whole, a 30 MiB
 * string was one step of 20-140 ms.
 */
async function parseOffLoop(request: Request, bytes: Uint8Array, parser: JsonParser): Promise<JsonRequest> {
  // The bytes are handed over, not copied; a view into a larger buffer (never made here) is copied first.
  const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? bytes as Uint8Array<ArrayBuffer>
    : bytes.slice();
  const answer = await parser.parse(own);
  if ("value" in answer) return await parser.receive(answer);
  if ("empty" in answer) throw emptyBody();
  if ("notJson" in answer) throw notJson(request, new SyntaxError(answer.notJson));
  if ("refused" in answer) throw new GatewayError(400, "invalid_request", answer.refused);
  throw new Error("the JSON parser answered a parse with a piece");
}

/** A body that did not parse: bad input, unless the client left mid-body (then it was only cut short). */
function notJson(request: Request, error: unknown): GatewayError {
  if (request.signal.aborted) return clientClosed(error);
  return new GatewayError(
    400,
    "invalid_request",
    `Request body is not valid JSON: ${(error as Error).message}`,
  );
}

/**
 * A request body's bytes (a multipart upload), read as a JSON body is: refused over `limit` before it is
 * buffered, and, over BIG_BODY_BYTES, admitted to the body lane and read a slice per turn under the stall
 * and pace limits (see `readJsonRequest`). A missing body is empty bytes.
 */
export async function readBodyBytes(
  request: Request,
  limit: number,
  big?: BigBodies,
): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw tooLarge(limit);
  if (big && declared > BIG_BODY_BYTES) await big.admit(declared);
  // Read as bytes, never text; every array read here is the runtime's or made here, on a buffer of its own.
  return await readBody(request, declared, limit, big, "bytes") as Uint8Array<ArrayBuffer>;
}

/**
 * The body: as text (`small` "text") or bytes when it is small, as bytes over BIG_BODY_BYTES (a JSON body is
 * decoded later, a turn apart or on the parser's thread). A failed read is the client's going away, not bad
 * input.
 */
async function readBody(
  request: Request,
  declared: number,
  limit: number,
  big: BigBodies | undefined,
  small: "text" | "bytes" = "text",
): Promise<string | Uint8Array> {
  try {
    // With a declared length the whole body can be read at once (the common, fast case); without one,
    // it is read chunk by chunk so an endless body is cut off at the limit.
    return declared > 0
      ? await readDeclared(request, declared, limit, big, small)
      : await readUndeclared(request, limit, big, small);
  } catch (error) {
    if (error instanceof GatewayError) throw error;
    throw clientClosed(error);
  }
}

/**
 * A body of declared length (a missing body reads as "", which the caller refuses as empty). A small one
 * is read and decoded natively in one go. A big one is left as bytes, read chunk by chunk into one array of
 * its declared size: reading it in one go grew a buffer by doubling and copied it into JavaScript in one
 * step (about 25 ms and 75 MiB at its peak for 30 MiB). The HTTP server holds a body to its declared
 * length, already checked; the length checks here only guard a hand-built Request whose header understates
 * its body (a string longer than the limit certainly has more bytes than it).
 */
async function readDeclared(
  request: Request,
  declared: number,
  limit: number,
  big: BigBodies | undefined,
  small: "text" | "bytes",
): Promise<string | Uint8Array> {
  if (declared <= BIG_BODY_BYTES || !request.body) {
    const read = small === "text" ? await request.text() : await request.bytes();
    if (read.length > limit) throw tooLarge(limit);
    return read;
  }
  const bytes = new Uint8Array(declared);
  let size = 0;
  let paced = 0;
  const reader = request.body.getReader();
  const upload = new UploadClock(big, 0);
  for (let next = await upload.read(reader, 0); !next.done; next = await upload.read(reader, size)) {
    if (size + next.value.length > declared) {
      await reader.cancel();
      throw tooLarge(Math.min(declared, limit));
    }
    bytes.set(next.value, size);
    size += next.value.length;
    if (size - paced >= READ_SLICE_BYTES) {
      paced = size;
      await nextTurn();
    }
  }
  return size === declared ? bytes : bytes.slice(0, size);
}

async function readUndeclared(
  request: Request,
  limit: number,
  big: BigBodies | undefined,
  small: "text" | "bytes",
): Promise<string | Uint8Array> {
  if (!request.body) {
    if (small === "bytes") return new Uint8Array(0);
    throw emptyBody();
  }
  const reader = request.body.getReader();
  // A small body usually comes in one chunk: the list of chunks is only started for a second one.
  let first: Uint8Array | undefined;
  let more: Uint8Array[] | undefined;
  let size = 0;
  let paced = 0;
  let upload: UploadClock | undefined;
  while (true) {
    // Only a body in the lane (grown past BIG_BODY_BYTES) is timed: a small one holds up no other.
    if (upload === undefined && size > BIG_BODY_BYTES) upload = new UploadClock(big, size);
    const next = upload === undefined ? await reader.read() : await upload.read(reader, size);
    if (next.done) break;
    const before = size;
    size += next.value.length;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    // Its size is unknown until its end: a body that grows big waits in the lane for the most it may be.
    if (big && before <= BIG_BODY_BYTES && size > BIG_BODY_BYTES) await big.admit(limit);
    if (size - paced >= READ_SLICE_BYTES) {
      paced = size;
      await nextTurn();
    }
    if (first === undefined) first = next.value;
    else (more ??= []).push(next.value);
  }
  const asText = small === "text";
  if (first === undefined) return asText ? "" : new Uint8Array(0);
  if (more === undefined) return size > BIG_BODY_BYTES || !asText ? first : UTF8.decode(first);
  const bytes = new Uint8Array(size);
  bytes.set(first);
  let offset = first.length;
  for (const chunk of more) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return size > BIG_BODY_BYTES || !asText ? bytes : UTF8.decode(bytes);
}

function clientClosed(cause: unknown): GatewayError {
  const message = "The client closed the connection while sending the request body";
  return new GatewayError(499, "client_closed", message, { cause });
}

function emptyBody(): GatewayError {
  return new GatewayError(400, "invalid_request", "Request body is empty; expected JSON");
}

function tooLarge(limit: number): GatewayError {
  return new GatewayError(
    413,
    "payload_too_large",
    `Request body is larger than ${Math.round(limit / 1024 / 1024)} MiB`,
  );
}

/**
 * Times a big body's reads from when it became big: each read waits at most the stall limit for its
 * bytes, and once that long has passed the body must have kept to the minimum pace on average.
 * Either failure is a 408 with its upload cancelled.
 */
class UploadClock {
  readonly #stallMs: number;
  readonly #minBytesPerSecond: number;
  readonly #startedAt = performance.now();
  /** Bytes that had arrived when the clock started (an undeclared body is timed from BIG_BODY_BYTES on). */
  readonly #before: number;

  /** `big` names the pace (the defaults without it); `before`: the bytes that arrived untimed. */
  constructor(big: BigBodies | undefined, before: number) {
    this.#stallMs = big?.stallMs ?? BODY_STALL_MS;
    this.#minBytesPerSecond = big?.minBytesPerSecond ?? MIN_BODY_BYTES_PER_SECOND;
    this.#before = before;
  }

  /** The reader's next chunk; `received` is how many bytes of the body have arrived so far. */
  async read(
    reader: ReadableStreamDefaultReader<Uint8Array>,
    received: number,
  ): Promise<ReadableStreamReadResult<Uint8Array>> {
    const stallMs = this.#stallMs;
    const minBytesPerSecond = this.#minBytesPerSecond;
    const arrived = received - this.#before;
    const elapsed = performance.now() - this.#startedAt;
    // The time the bytes so far have earned: the grace, and a second per minBytesPerSecond of them.
    const allowed = stallMs + (arrived * 1000) / minBytesPerSecond - elapsed;
    const slow = () => {
      const seconds = Math.round((performance.now() - this.#startedAt) / 1000);
      return new GatewayError(
        408,
        "timeout",
        `Request body too slow: ${mib(arrived)} MiB arrived in ${seconds} s; a body over ` +
          `${BIG_BODY_BYTES / 1024 / 1024} MiB must arrive at ${minBytesPerSecond / 1024} KiB/s or faster`,
      );
    };
    if (allowed <= 0) {
      reader.cancel().catch(() => {});
      throw slow();
    }
    const stalled = () =>
      new GatewayError(408, "timeout", `Request body stalled: no bytes arrived for ${stallMs / 1000} s`);
    return await readWithin(reader, Math.min(stallMs, allowed), allowed < stallMs ? slow : stalled);
  }
}

/** MiB with one decimal, as the 408s name sizes. */
function mib(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(1);
}

/** The reader's next chunk, or `error()` thrown (the read cancelled) when nothing comes within `waitMs`. */
async function readWithin(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  waitMs: number,
  error: () => GatewayError,
): Promise<ReadableStreamReadResult<Uint8Array>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(error());
      reader.cancel().catch(() => {});
    }, waitMs);
  });
  try {
    return await Promise.race([reader.read(), late]);
  } finally {
    clearTimeout(timer);
  }
}
