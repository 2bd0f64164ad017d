import { type Frame, ndjsonFrames, sseFrames } from "../../../src/wire/framing/mod.ts";
import type { StreamStage } from "../../../src/wire/shared/stream_stage.ts";
import { assertEquals } from "../../helpers/assert.ts";

/** A deterministic PRNG so failures reproduce. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x80000000;
  };
}

/** Cuts `text` into reads of 1 to 80 characters, many of them tiny. */
function splitAnywhere(text: string, next: () => number): string[] {
  const pieces: string[] = [];
  for (let at = 0; at < text.length;) {
    const size = 1 + Math.floor(next() * (next() < 0.5 ? 3 : 80));
    pieces.push(text.slice(at, at + size));
    at += size;
  }
  return pieces;
}

function frames(
  pieces: readonly string[],
  stage: StreamStage<string, Frame> = sseFrames(),
): Frame[] {
  const out: Frame[] = [];
  const steps = stage.steps;
  const sink = { enqueue: (frame: Frame) => out.push(frame) };
  for (const piece of pieces) steps.transform(piece, sink);
  steps.flush?.(sink);
  return out;
}

Deno.test("sseFrames: LF, CRLF and CR line ends, split anywhere, give the same frames (1500 random streams)", () => {
  const next = random(11);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
  for (let i = 0; i < 1500; i++) {
    // One line-end style for most streams, a mix for some.
    const style = pick(["\n", "\r\n", "\r", "mixed"]);
    // In a mix, an LF right after a CR would join it into one CRLF line end, as the spec says.
    let last = "";
    const end = () => {
      if (style !== "mixed") return style;
      last = pick(last === "\r" ? ["\r\n", "\r"] : ["\n", "\r\n", "\r"]);
      return last;
    };
    const expected: Frame[] = [];
    let text = "";
    for (let e = 0; e < 1 + Math.floor(next() * 6); e++) {
      if (next() < 0.2) text += `: keep-alive${end()}`;
      const event = next() < 0.3 ? pick(["message", "delta", "ping"]) : undefined;
      if (event) text += `event: ${event}${end()}`;
      const lines = Array.from(
        { length: 1 + Math.floor(next() * 3) },
        (_, n) => JSON.stringify({ n, text: "é✓ ".repeat(Math.floor(next() * 5)) }),
      );
      for (const line of lines) text += next() < 0.5 ? `data: ${line}${end()}` : `data:${line}${end()}`;
      text += end();
      expected.push(event ? { event, data: lines.join("\n") } : { data: lines.join("\n") });
    }
    const pieces = splitAnywhere(text, next);
    let scanned = 0;
    const framer = sseFrames({ maxEventChars: 4096, scanned: (chars) => (scanned += chars) });
    assertEquals(frames(pieces, framer), expected, `stream ${i} (${JSON.stringify(style)})`);
    // Each character is searched once, however the stream is split (an LF after a split CRLF is not).
    assertEquals(scanned <= text.length, true, `stream ${i} scanned ${scanned} of ${text.length}`);
  }
});

Deno.test("ndjsonFrames: lines split anywhere give the same frames, each character searched once (1000 random streams)", () => {
  const next = random(23);
  for (let i = 0; i < 1000; i++) {
    const expected: Frame[] = [];
    let text = "";
    for (let n = 0; n < Math.floor(next() * 6); n++) {
      if (next() < 0.2) text += next() < 0.5 ? "\n" : "  \r\n";
      const line = JSON.stringify({ n, text: "é✓ ".repeat(Math.floor(next() * 5)) });
      text += line + (next() < 0.5 ? "\n" : "\r\n");
      expected.push({ data: line });
    }
    if (next() < 0.3) {
      text += '{"last":true}';
      expected.push({ data: '{"last":true}' });
    }
    const pieces = splitAnywhere(text, next);
    let scanned = 0;
    const framer = ndjsonFrames({ maxEventChars: 4096, scanned: (chars) => (scanned += chars) });
    assertEquals(frames(pieces, framer), expected, `stream ${i}`);
    assertEquals(scanned, text.length, `stream ${i}`);
  }
});

Deno.test("sseFrames emits a last frame that lacks its blank line, and skips comments and unknown fields", () => {
  assertEquals(frames(["data: a\n\n: note\nid: 7\ndata: b\nretry: 5\ndata: c"]), [
    { data: "a" },
    { data: "b\nc" },
  ]);
});
