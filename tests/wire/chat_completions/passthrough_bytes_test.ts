/**
 * The byte lane of the chat passthrough (passthrough_bytes.ts) against the frame path it shortcuts: the
 * same upstream bytes, cut into the same reads, go through both; the client must read the same bytes,
 * every frame must carry the same text, and the meter must see the same calls in the same order.
 */
import { assert, assertEquals, assertThrows } from "../../helpers/assert.ts";
import { chatPassthroughBytes } from "../../../src/wire/chat_completions/passthrough_bytes.ts";
import {
  chatPassthroughFrames,
  type PassthroughObserver,
} from "../../../src/wire/chat_completions/passthrough.ts";
import { type Frame, frameText } from "../../../src/wire/framing/mod.ts";
import { chainSteps, type StageSteps } from "../../../src/wire/shared/mod.ts";
import { frameSteps } from "../../../src/gateway/upstream_stream.ts";
import type { UpstreamCodec } from "../../../src/wire/codec.ts";
import { BODIES, ENVELOPE, ENVELOPES, random, TAIL } from "./chunk_envelopes.ts";

const SSE = { framing: "sse" } as UpstreamCodec;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

type Call = [string, unknown];

interface Run {
  /** What the client reads. */
  readonly bytes: string;
  /** Each frame's data text, in order. */
  readonly data: string[];
  readonly calls: Call[];
  /** Frames that went as the upstream's bytes. */
  readonly wireFrames: number;
}

function observerInto(calls: Call[]): PassthroughObserver {
  return {
    usage: (usage) => calls.push(["usage", usage]),
    finish: (finish) => calls.push(["finish", finish]),
    error: (message) => calls.push(["error", message]),
    content: () => calls.push(["content", null]),
    text: (text) => calls.push(["text", text]),
  };
}

function drive(steps: StageSteps<Uint8Array, Frame>, reads: readonly Uint8Array[]): Omit<Run, "calls"> {
  const frames: Frame[] = [];
  const out = { enqueue: (frame: Frame) => frames.push(frame) };
  for (const read of reads) steps.transform(read, out);
  steps.flush?.(out);
  const parts = frames.map((frame) =>
    frame.wire === undefined ? frameText(frame, "sse") : decoder.decode(frame.wire)
  );
  return {
    bytes: parts.join(""),
    data: frames.map((frame) => frame.data),
    wireFrames: frames.filter((frame) => frame.wire !== undefined).length,
  };
}

const MAX_EVENT_CHARS = 4096;

/** Both paths over the same reads; `model` renames the stream's model as the gateway does. */
function bothPaths(reads: readonly Uint8Array[], model?: string): { lane: Run; frames: Run } {
  const options = (calls: Call[]) => ({ now: 5, fallbackId: "fb", model, observer: observerInto(calls) });
  const laneCalls: Call[] = [];
  const frameCalls: Call[] = [];
  // Each read is copied first: the lane must not keep views into a buffer the connection reuses.
  const reused = (steps: StageSteps<Uint8Array, Frame>): StageSteps<Uint8Array, Frame> => {
    const buffer = new Uint8Array(64 * 1024);
    return {
      transform(read, out) {
        buffer.set(read);
        steps.transform(buffer.subarray(0, read.length), out);
        buffer.fill(0x58, 0, read.length);
      },
      flush: (out) => steps.flush?.(out),
    };
  };
  const lane = drive(
    reused(
      chatPassthroughBytes(frameSteps(SSE, MAX_EVENT_CHARS), {
        ...options(laneCalls),
        maxEventChars: MAX_EVENT_CHARS,
      }),
    ),
    reads,
  );
  const frames = drive(
    reused(chainSteps(frameSteps(SSE, MAX_EVENT_CHARS), chatPassthroughFrames(options(frameCalls)).steps)),
    reads,
  );
  return { lane: { ...lane, calls: laneCalls }, frames: { ...frames, calls: frameCalls } };
}

/** Bodies the byte lane can carry (plain ASCII, non-ASCII text), for most chunks; BODIES for the rest. */
const PLAIN_BODIES = ["tok", " world", "caf\u00e9 \ud83d\ude00", "\u4e2d\u6587"];

Deno.test("chat passthrough: the byte lane and the frame path give the same bytes, frames and meter calls (2000 random streams)", () => {
  const next = random(11);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
  let wireFrames = 0;
  let renamedWireFrames = 0;
  for (let i = 0; i < 2000; i++) {
    // Events as an upstream writes them: mostly `data: ` and a blank line, sometimes another spelling.
    const events: string[] = [];
    const count = 1 + Math.floor(next() * 24);
    for (let c = 0; c < count; c++) {
      const roll = next();
      let data: string;
      if (roll < 0.04) data = "[DONE]";
      else if (roll < 0.06) data = '{"error":{"message":"overloaded"}}';
      else if (roll < 0.08) data = "<html>oops</html>";
      else {
        const envelope = next() < 0.7 ? ENVELOPES[0] : pick(ENVELOPES);
        data = envelope.prefix + (next() < 0.7 ? pick(PLAIN_BODIES) : pick(BODIES)) + envelope.suffix;
      }
      const spelling = next();
      if (spelling < 0.85) events.push(`data: ${data}\n\n`);
      else if (spelling < 0.9) events.push(`data:${data}\n\n`);
      else if (spelling < 0.93) events.push(`data: ${data}\r\n\r\n`);
      else if (spelling < 0.96) events.push(`: keep-alive\n\ndata: ${data}\n\n`);
      else events.push(`event: message\ndata: ${data}\n\n`);
    }
    const bytes = encoder.encode(events.join(""));
    // Reads cut on event boundaries (where the lane can take them) or anywhere, even inside a character.
    const reads: Uint8Array[] = [];
    const boundaries = new Set<number>();
    let at = 0;
    for (const event of events) boundaries.add(at += encoder.encode(event).length);
    let start = 0;
    for (let cut = 1; cut <= bytes.length; cut++) {
      const end = cut === bytes.length || (boundaries.has(cut) ? next() < 0.7 : next() < 0.002);
      if (end) {
        reads.push(bytes.slice(start, cut));
        start = cut;
      }
    }
    if (next() < 0.1) reads.splice(Math.floor(next() * reads.length), 0, new Uint8Array(0));
    const model = next() < 0.5 ? "prefix/m" : undefined;
    const { lane, frames } = bothPaths(reads, model);
    const what = `stream ${i} (model ${model}): ${JSON.stringify(events)}`;
    assertEquals(lane.bytes, frames.bytes, what);
    assertEquals(lane.data, frames.data, what);
    assertEquals(lane.calls, frames.calls, what);
    assertEquals(frames.wireFrames, 0);
    wireFrames += lane.wireFrames;
    if (model !== undefined) renamedWireFrames += lane.wireFrames;
  }
  // The comparison means something only if the lane really carried a good share of the events.
  assert(wireFrames > 1500, `the byte lane carried ${wireFrames} frames`);
  assert(renamedWireFrames > 500, `the byte lane carried ${renamedWireFrames} renamed frames`);
});

Deno.test("chat passthrough: a stream in one envelope goes as the upstream's own bytes once the envelope is learnt", () => {
  const events = ["tok", " one", " two"].map((body) => `data: ${ENVELOPE}${body}${TAIL}\n\n`);
  const reads = [...events, "data: [DONE]\n\n"].map((event) => encoder.encode(event));
  const { lane, frames } = bothPaths(reads);
  assertEquals(lane.bytes, frames.bytes);
  assert(lane.bytes.startsWith(events.join("")), "the content chunks reach the client as they came");
  // The first content chunk teaches the envelope on the frame path; the next two go as bytes.
  assertEquals(lane.wireFrames, 2);
});

Deno.test("chat passthrough: an over-long event is refused by the framing whichever path the stream was on", () => {
  const long = "x".repeat(MAX_EVENT_CHARS);
  const reads = [`data: ${ENVELOPE}tok${TAIL}\n\n`, `data: ${ENVELOPE}${long}${TAIL}\n\n`].map((e) =>
    encoder.encode(e)
  );
  const steps = chatPassthroughBytes(frameSteps(SSE, MAX_EVENT_CHARS), {
    now: 5,
    fallbackId: "fb",
    maxEventChars: MAX_EVENT_CHARS,
  });
  const out = { enqueue: () => {} };
  steps.transform(reads[0], out);
  assertThrows(() => steps.transform(reads[1], out));
});
