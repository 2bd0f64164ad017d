import { type Frame, sseFrames } from "../../../src/wire/framing/mod.ts";
import { assertEquals } from "../../helpers/assert.ts";

/** A deterministic PRNG so failures reproduce. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x80000000;
  };
}

function frames(pieces: readonly string[]): Frame[] {
  const out: Frame[] = [];
  const steps = sseFrames().steps;
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
    const pieces: string[] = [];
    for (let at = 0; at < text.length;) {
      const size = 1 + Math.floor(next() * (next() < 0.5 ? 3 : 80));
      pieces.push(text.slice(at, at + size));
      at += size;
    }
    assertEquals(frames(pieces), expected, `stream ${i} (${JSON.stringify(style)})`);
  }
});

Deno.test("sseFrames emits a last frame that lacks its blank line, and skips comments and unknown fields", () => {
  assertEquals(frames(["data: a\n\n: note\nid: 7\ndata: b\nretry: 5\ndata: c"]), [
    { data: "a" },
    { data: "b\nc" },
  ]);
});
