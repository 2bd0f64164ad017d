import { type Frame, MAX_EVENT_CHARS, ndjsonFrames, sseFrames } from "../../../src/wire/framing/mod.ts";
import type { StreamStage } from "../../../src/wire/shared/stream_stage.ts";
import { GatewayError } from "../../../src/model/mod.ts";
import { assert, assertEquals, assertThrows } from "../../helpers/assert.ts";

const READ = 64 * 1024;
const MIB = 1024 * 1024;

/** Feeds `text` in reads of `size` characters; returns the frames and the reads taken before a throw. */
function feed(stage: StreamStage<string, Frame>, text: string, size = READ): Frame[] {
  const out: Frame[] = [];
  const sink = { enqueue: (frame: Frame) => out.push(frame) };
  for (let at = 0; at < text.length; at += size) stage.steps.transform(text.slice(at, at + size), sink);
  stage.steps.flush?.(sink);
  return out;
}

Deno.test("sseFrames() searches each character once: a 20 MiB data line in 64 KiB reads scans 20 MiB", () => {
  const line = "x".repeat(20 * MIB);
  const text = `data: ${line}\n\n`;
  let scanned = 0;
  let reads = 0;
  const stage = sseFrames({ maxEventChars: 32 * MIB, scanned: (chars) => (scanned += chars, reads++) });
  const frames = feed(stage, text);
  assertEquals(frames.length, 1);
  assertEquals(frames[0].data.length, line.length);
  assertEquals(reads, Math.ceil(text.length / READ));
  // The old framer searched its whole buffer again on every read: about 320 × 10 MiB here.
  assertEquals(scanned, text.length);
});

Deno.test("ndjsonFrames() searches each character once: a 20 MiB line in 64 KiB reads scans 20 MiB", () => {
  const text = `{"a":"${"y".repeat(20 * MIB)}"}\n{"b":1}\n`;
  let scanned = 0;
  const frames = feed(
    ndjsonFrames({ maxEventChars: 32 * MIB, scanned: (chars) => (scanned += chars) }),
    text,
  );
  assertEquals(frames.map((f) => f.data.length), [20 * MIB + 8, 7]);
  assertEquals(scanned, text.length);
});

Deno.test("sseFrames() stops an event over the limit with an upstream error, at the read that passes it", () => {
  let reads = 0;
  const stage = sseFrames({ scanned: () => reads++ });
  const error = assertThrows(() => feed(stage, `data: ${"z".repeat(20 * MIB)}`), GatewayError);
  assertEquals([error.kind, error.status], ["upstream", 502]);
  assert(error.message.includes("over-long event"), error.message);
  assertEquals(reads, Math.floor(MAX_EVENT_CHARS / READ) + 1);
});

Deno.test("sseFrames() counts an event's data lines together against the limit, and resets after each event", () => {
  const small = sseFrames({ maxEventChars: 100 });
  const ok = feed(small, `data: ${"a".repeat(40)}\ndata: ${"b".repeat(40)}\n\ndata: ${"c".repeat(90)}\n\n`);
  assertEquals(ok.map((f) => f.data.length), [81, 90]);
  const error = assertThrows(
    () => feed(sseFrames({ maxEventChars: 100 }), `data: ${"a".repeat(60)}\ndata: ${"b".repeat(60)}\n\n`, 7),
    GatewayError,
  );
  assertEquals(error.kind, "upstream");
});

Deno.test("sseFrames() refuses an endless comment line too (nothing may grow without bound)", () => {
  const error = assertThrows(() => feed(sseFrames({ maxEventChars: 1000 }), `: ${"k".repeat(5000)}`, 100));
  assert(error instanceof GatewayError && error.kind === "upstream");
});

Deno.test("ndjsonFrames() stops a line over the limit with an upstream error", () => {
  const error = assertThrows(
    () => feed(ndjsonFrames({ maxEventChars: 1000 }), "q".repeat(5000), 100),
    GatewayError,
  );
  assertEquals(error.kind, "upstream");
  assert(error.message.includes("over-long event"));
});
