/**
 * A mock upstream for the fuzzer that speaks every upstream wire format and misbehaves on purpose. The
 * first path segment names the mode (`/ok/...` answers well), the rest names the format, and the
 * `seed:<n>` the client put in its prompt picks the variant, so every answer is reproducible.
 */
import type { NeutralResponse, WireFormat } from "../../src/model/mod.ts";
import { codecFor } from "../../src/wire/mod.ts";
import { responseEvents } from "../../src/gateway/dispatch.ts";
import { formatOfPath } from "../helpers/format_upstream.ts";
import { Rng } from "./fuzzer.ts";
import { deepNest } from "./hostile_values.ts";

/** What a hostile upstream can do; `ok` is the well-behaved baseline the client campaigns use. */
export const UPSTREAM_MODES = [
  "garbage_json",
  "truncated_sse",
  "giant_line",
  "wrong_content_type",
  "mid_stream_reset",
  "slow_drip",
  "invalid_utf8",
  "huge_headers",
  "error_status",
] as const;

/** One hostile-upstream mode. */
export type UpstreamMode = typeof UPSTREAM_MODES[number];

/** The error a deliberately reset stream ends with (the runner keeps it out of the output). */
export const RESET_MESSAGE = "fuzz upstream reset the stream";

const FORMATS: readonly WireFormat[] = ["chat_completions", "messages", "generate_content", "responses"];

/** A valid answer of one format, framed as the upstream would send it. */
interface Canned {
  readonly text: string;
  readonly contentType: string;
}

/** A running hostile upstream. */
export interface HostileUpstream {
  readonly url: string;
  close(): Promise<void>;
}

const ANSWER: NeutralResponse = {
  id: "fuzz-0001",
  model: "fuzz-model",
  created: 1_700_000_000,
  parts: [
    { kind: "text", text: "A fuzzed answer with some text in it." },
    { kind: "toolCall", id: "call_fuzz_1", name: "get_weather", arguments: '{"city":"Paris"}' },
  ],
  finish: { unified: "tool_calls", raw: null },
  usage: { inputTotal: 12, cacheRead: 0, cacheWrite: 0, output: 6, reasoning: 0 },
};

/** `big` allows the largest lines and bodies (the long run); the test run keeps them small. */
export async function startHostileUpstream(big: boolean): Promise<HostileUpstream> {
  const canned = await cannedAnswers();
  const controller = new AbortController();
  const { promise, resolve } = Promise.withResolvers<number>();
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    signal: controller.signal,
    onListen: ({ port }) => resolve(port),
  }, async (request) => {
    const url = new URL(request.url);
    const [, mode, ...rest] = url.pathname.split("/");
    const path = `/${rest.join("/")}`;
    const text = await request.text();
    const stream = path.includes("streamGenerateContent") || /"stream"\s*:\s*true/.test(text);
    const seed = Number(/seed:(\d+)/.exec(text)?.[1] ?? "0");
    const valid = mediaAnswer(path) ?? embeddingsAnswer(path, text) ??
      canned.get(`${formatOfPath(path)}:${stream}`) as Canned;
    return misbehave(mode, valid, new Rng(seed), big, request.signal);
  });
  const port = await promise;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      controller.abort();
      await server.finished;
    },
  };
}

/** The valid answer of an images, audio or rerank endpoint (OpenAI-compatible upstreams), for those surfaces. */
function mediaAnswer(path: string): Canned | undefined {
  if (path.includes("/images/")) {
    return {
      text: '{"created":1700000000,"data":[{"b64_json":"aGVsbG8="}]}',
      contentType: "application/json",
    };
  }
  if (path.endsWith("/audio/speech")) return { text: "ID3-fake-audio-bytes", contentType: "audio/mpeg" };
  if (path.endsWith("/rerank")) {
    return {
      text: '{"id":"rr","results":[{"index":1,"relevance_score":0.9},{"index":0,"relevance_score":0.1}],' +
        '"usage":{"total_tokens":5}}',
      contentType: "application/json",
    };
  }
  if (path.includes("/audio/")) {
    return { text: '{"text":"hello","duration":3}', contentType: "application/json" };
  }
  return undefined;
}

/** A valid embeddings answer with one vector per input the request sent (OpenAI-compatible or Gemini). */
function embeddingsAnswer(path: string, requestText: string): Canned | undefined {
  const json = path.endsWith("/embeddings") || path.endsWith(":batchEmbedContents") ||
    path.endsWith(":embedContent");
  if (!json) return undefined;
  let body: { input?: unknown; requests?: unknown[] } = {};
  try {
    body = JSON.parse(requestText);
  } catch {
    // A body the gateway would never send: answer for one input.
  }
  const vector = [0.25, -0.5, 1];
  let text: string;
  if (path.endsWith(":embedContent")) text = JSON.stringify({ embedding: { values: vector } });
  else if (path.endsWith(":batchEmbedContents")) {
    text = JSON.stringify({ embeddings: (body.requests ?? [0]).map(() => ({ values: vector })) });
  } else {
    const inputs = Array.isArray(body.input) && typeof body.input[0] !== "number" ? body.input.length : 1;
    text = JSON.stringify({
      object: "list",
      data: Array.from({ length: inputs }, (_, index) => ({ object: "embedding", index, embedding: vector })),
      usage: { prompt_tokens: 2, total_tokens: 2 },
    });
  }
  return { text, contentType: "application/json" };
}

async function cannedAnswers(): Promise<Map<string, Canned>> {
  const out = new Map<string, Canned>();
  const ctx = { requestModel: "fuzz-model", now: 1_700_000_000 };
  for (const format of FORMATS) {
    const codec = codecFor(format);
    out.set(`${format}:false`, {
      text: JSON.stringify(codec.encodeResponse(ANSWER, ctx)),
      contentType: "application/json",
    });
    const framed = ReadableStream.from(responseEvents(ANSWER)).pipeThrough(codec.encodeStream(ctx));
    out.set(`${format}:true`, {
      text: (await Array.fromAsync(framed)).join(""),
      contentType: "text/event-stream",
    });
  }
  return out;
}

const ENCODER = new TextEncoder();

/** Giant lines by (size bucket, kind): building 24 MiB of text per answer would load this machine's
 * shared cores as much as the gateway under test, and the health probe would measure that. */
const GIANT_LINES = new Map<string, Uint8Array<ArrayBuffer>>();

/** A line of about `size` characters (rounded to a power-of-two bucket), as JSON content or bare text. */
function giantLine(size: number, json: boolean, ended: boolean): Uint8Array<ArrayBuffer> {
  const bucket = 2 ** Math.round(Math.log2(size));
  const key = `${bucket}:${json}:${ended}`;
  let line = GIANT_LINES.get(key);
  if (line === undefined) {
    line = ENCODER.encode(
      json
        ? `data: {"choices":[{"delta":{"content":"${"y".repeat(bucket)}"}}]}\n\n`
        : `data: ${"x".repeat(bucket)}${ended ? "\n\n" : ""}`,
    );
    GIANT_LINES.set(key, line);
  }
  return line;
}

function misbehave(mode: string, valid: Canned, rng: Rng, big: boolean, signal: AbortSignal): Response {
  const bytes = ENCODER.encode(valid.text);
  switch (mode as UpstreamMode | "ok") {
    case "ok":
      return reply(bytes, valid.contentType);
    case "garbage_json":
      return reply(
        ENCODER.encode(garbage(rng, valid.text)),
        rng.pick([valid.contentType, "application/json"]),
      );
    case "truncated_sse":
      return reply(bytes.subarray(0, rng.int(bytes.length)), valid.contentType);
    case "giant_line": {
      const size = rng.size(64 * 1024, big ? 24 * 1024 * 1024 : 2 * 1024 * 1024);
      const json = rng.chance(0.5);
      const ended = rng.chance(0.5);
      const line = giantLine(size, json, ended);
      if (rng.chance(0.5)) return reply(line, valid.contentType);
      const withPrefix = new Uint8Array(bytes.length + line.length);
      withPrefix.set(bytes);
      withPrefix.set(line, bytes.length);
      return reply(withPrefix, valid.contentType);
    }
    case "wrong_content_type":
      return reply(
        bytes,
        rng.pick([
          "text/html",
          "application/octet-stream",
          "text/event-stream",
          "application/json",
          "application/x-ndjson",
          "",
        ]),
      );
    case "mid_stream_reset":
      return chunked(split(rng, bytes, rng.int(bytes.length)), valid.contentType, 0, true, signal);
    case "slow_drip": {
      // Keep-alive comments before the first byte of content probe the first-content deadline.
      const comments = rng.chance(0.5)
        ? ENCODER.encode(": ping\n\n".repeat(rng.size(1, 40)))
        : new Uint8Array();
      const drip = split(rng, new Uint8Array([...comments, ...bytes]), bytes.length + comments.length);
      // At most ~3 s in all (1 s in the test run), so the campaign stays bounded in time.
      const delay = Math.min(rng.size(5, 80), (big ? 3_000 : 1_000) / drip.length);
      return chunked(drip, valid.contentType, delay, false, signal);
    }
    case "invalid_utf8": {
      const damaged = Uint8Array.from(bytes);
      for (let i = rng.size(1, 8); i > 0; i--) {
        damaged[rng.int(damaged.length)] = rng.pick([0xff, 0xfe, 0xc0, 0xed, 0x80]);
      }
      return reply(damaged, valid.contentType);
    }
    case "huge_headers": {
      const headers = new Headers({ "content-type": valid.contentType });
      const count = rng.size(1, 400);
      for (let i = 0; i < count; i++) headers.set(`x-fuzz-${i}`, "h".repeat(rng.size(1, 8_000)));
      return new Response(bytes, { headers });
    }
    case "error_status": {
      const status = rng.pick([400, 401, 403, 404, 408, 409, 413, 422, 429, 500, 502, 503, 504, 529]);
      const retryAfter = rng.pick(["1", "-1", "0", "99999999999", "Wed, 21 Oct 2015 07:28:00 GMT", "soon"]);
      return new Response(garbage(rng, valid.text), { status, headers: { "retry-after": retryAfter } });
    }
    default:
      return new Response(`unknown mode ${mode}`, { status: 404 });
  }
}

/** A body that is not quite the answer: junk, the wrong shape, far too deep, or cut short. */
function garbage(rng: Rng, valid: string): string {
  switch (rng.int(7)) {
    case 0:
      return Array.from({ length: rng.size(1, 400) }, () => String.fromCharCode(rng.int(128))).join("");
    case 1:
      return rng.pick([
        "",
        "null",
        "[]",
        "{}",
        '{"error":null}',
        '{"choices":[]}',
        '{"candidates":[{}]}',
        '"x"',
      ]);
    case 2:
      return deepNest(rng, rng.size(100, 60_000));
    case 3:
      return valid.slice(0, rng.int(valid.length));
    case 4:
      return valid.replace(/"[^"]*"/, () => JSON.stringify(deepNest(rng, 5)));
    case 5:
      return `{"error":{"message":"\\ud800 ${"z".repeat(rng.size(1, 200_000))}"}}`;
    default:
      return valid.replaceAll(
        /:\s*"([^"]*)"/g,
        (_, s: string) => `:${rng.pick(["1", "null", "[]", "{}", `"${s}"`])}`,
      );
  }
}

/** Bytes cut into random pieces (one piece at most at `end`). */
function split(rng: Rng, bytes: Uint8Array<ArrayBuffer>, end: number): Uint8Array<ArrayBuffer>[] {
  const pieces: Uint8Array<ArrayBuffer>[] = [];
  for (let at = 0; at < end;) {
    const size = Math.min(end - at, rng.size(1, 64));
    pieces.push(bytes.subarray(at, at + size));
    at += size;
  }
  return pieces.slice(0, 200).concat(pieces.length > 200 ? [bytes.subarray(0, 0)] : []);
}

function reply(bytes: Uint8Array<ArrayBuffer>, contentType: string): Response {
  return new Response(bytes, { headers: contentType === "" ? {} : { "content-type": contentType } });
}

/** Pieces written with a delay between them, ended cleanly or by an error (a reset). */
function chunked(
  pieces: Uint8Array<ArrayBuffer>[],
  contentType: string,
  delayMs: number,
  reset: boolean,
  signal: AbortSignal,
): Response {
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      for (const piece of pieces) {
        if (signal.aborted) return;
        if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
        try {
          controller.enqueue(piece);
        } catch {
          return;
        }
      }
      // A string reason: the runtime logs it as one line (an Error would print its stack each time).
      if (reset) controller.error(RESET_MESSAGE);
      else controller.close();
    },
  });
  return new Response(body, { headers: { "content-type": contentType } });
}
