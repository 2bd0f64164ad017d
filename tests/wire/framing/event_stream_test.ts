import { assert, assertEquals, assertThrows } from "../../helpers/assert.ts";
import {
  decodeEventStream,
  type EventStreamMessage,
  stringHeader,
} from "../../../src/wire/framing/event_stream.ts";
import { crc32 } from "../../../src/wire/framing/crc32.ts";
import { encodeEventStreamMessage, type Header, kiroEvent } from "../../helpers/event_stream_encode.ts";

/** A seeded PRNG (mulberry32) so a failing case can be replayed from its seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function decodeAll(chunks: readonly Uint8Array[]): EventStreamMessage[] {
  const out: EventStreamMessage[] = [];
  const steps = decodeEventStream().steps;
  const sink = { enqueue: (m: EventStreamMessage) => out.push(m) };
  for (const chunk of chunks) steps.transform(chunk, sink);
  steps.flush?.(sink);
  return out;
}

function randomBytes(next: () => number, length: number): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = Math.floor(next() * 256);
  return out;
}

function randomHeader(next: () => number, i: number): Header {
  const name = `h${i}-${Math.floor(next() * 1e6)}`;
  const int = (bits: number) => Math.floor(next() * 2 ** bits) - 2 ** (bits - 1);
  const big = () =>
    BigInt.asIntN(64, (BigInt(Math.floor(next() * 2 ** 32)) << 32n) | BigInt(Math.floor(next() * 2 ** 32)));
  const hex = () => [...randomBytes(next, 16)].map((b) => b.toString(16).padStart(2, "0")).join("");
  switch (Math.floor(next() * 9)) {
    case 0:
      return { name, value: { type: "bool", value: next() < 0.5 } };
    case 1:
      return { name, value: { type: "byte", value: int(8) } };
    case 2:
      return { name, value: { type: "short", value: int(16) } };
    case 3:
      return { name, value: { type: "int", value: int(32) } };
    case 4:
      return { name, value: { type: next() < 0.5 ? "long" : "timestamp", value: big() } };
    case 5:
      return { name, value: { type: "bytes", value: randomBytes(next, Math.floor(next() * 40)) } };
    case 6:
      return { name, value: { type: "string", value: "é✓ text ".repeat(Math.floor(next() * 5)) } };
    default: {
      const h = hex();
      const value = `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
      return { name, value: { type: "uuid", value } };
    }
  }
}

function randomMessages(next: () => number): { headers: Header[]; payload: Uint8Array }[] {
  return Array.from({ length: 1 + Math.floor(next() * 6) }, () => ({
    headers: Array.from({ length: Math.floor(next() * 7) }, (_, i) => randomHeader(next, i)),
    payload: randomBytes(next, Math.floor(next() * 300)),
  }));
}

function randomSplit(next: () => number, bytes: Uint8Array): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  let at = 0;
  while (at < bytes.length) {
    const size = next() < 0.3 ? 1 : 1 + Math.floor(next() * 64);
    chunks.push(bytes.slice(at, at + size));
    at += size;
  }
  return chunks;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

Deno.test("crc32() matches the IEEE check value of '123456789'", () => {
  assertEquals(crc32(new TextEncoder().encode("123456789")), 0xcbf43926);
});

Deno.test("decodeEventStream(): random valid messages in random splits decode to the same messages (300 seeds)", () => {
  for (let seed = 1; seed <= 300; seed++) {
    const next = prng(seed);
    const messages = randomMessages(next);
    const wire = concat(messages.map((m) => encodeEventStreamMessage(m.headers, m.payload)));
    const decoded = decodeAll(randomSplit(next, wire));
    assertEquals(decoded.length, messages.length, `seed ${seed}`);
    for (let i = 0; i < messages.length; i++) {
      assertEquals(decoded[i].headers, messages[i].headers, `seed ${seed} message ${i} headers`);
      assertEquals([...decoded[i].payload], [...messages[i].payload], `seed ${seed} message ${i} payload`);
    }
  }
});

Deno.test("decodeEventStream(): any flipped byte is rejected with an error, never decoded as a message (100 seeds)", () => {
  for (let seed = 1; seed <= 100; seed++) {
    const next = prng(seed * 7919);
    const messages = randomMessages(next).slice(0, 2);
    const wire = concat(messages.map((m) => encodeEventStreamMessage(m.headers, m.payload)));
    const position = Math.floor(next() * wire.length);
    const flipped = wire.slice();
    flipped[position] ^= 1 + Math.floor(next() * 255);
    // Messages wholly before the flipped byte are fine; the one holding it, and none after, must not appear.
    const ends: number[] = [];
    let end = 0;
    for (const m of messages) ends.push(end += encodeEventStreamMessage(m.headers, m.payload).length);
    const intact = ends.filter((e) => e <= position).length;
    const out: EventStreamMessage[] = [];
    const steps = decodeEventStream().steps;
    const sink = { enqueue: (m: EventStreamMessage) => out.push(m) };
    let failed = false;
    try {
      for (const chunk of randomSplit(next, flipped)) steps.transform(chunk, sink);
      steps.flush?.(sink);
    } catch (error) {
      failed = true;
      assert(error instanceof Error && /corrupt event stream/.test(error.message), String(error));
    }
    assert(failed, `seed ${seed}: flipping byte ${position} was not detected`);
    assertEquals(out.length, intact, `seed ${seed}: a message was decoded from corrupt bytes`);
  }
});

Deno.test("decodeEventStream() rejects a stream that ends inside a message", () => {
  const wire = kiroEvent("assistantResponseEvent", { content: "hi" });
  assertThrows(() => decodeAll([wire.slice(0, wire.length - 3)]), Error, "ended inside a message");
});

Deno.test("decodeEventStream() refuses a declared length beyond its limit before waiting for the bytes", () => {
  const wire = encodeEventStreamMessage([], new Uint8Array(200));
  const steps = decodeEventStream(64).steps;
  assertThrows(() => steps.transform(wire.slice(0, 12), { enqueue: () => {} }), Error, "exceeds the limit");
});

Deno.test("stringHeader() reads Kiro's :event-type and ignores headers of other types", () => {
  const [message] = decodeAll([
    encodeEventStreamMessage([
      { name: ":event-type", value: { type: "int", value: 3 } },
      { name: ":event-type", value: { type: "string", value: "metricsEvent" } },
    ], new Uint8Array()),
  ]);
  assertEquals(stringHeader(message, ":event-type"), "metricsEvent");
  assertEquals(stringHeader(message, ":missing"), undefined);
});

Deno.test("decodeEventStream() keeps a copy of a partial message: the reader may reuse a chunk's memory", () => {
  const wire = kiroEvent("assistantResponseEvent", { content: "reused buffers" });
  const buffer = new Uint8Array(8);
  const out: EventStreamMessage[] = [];
  const steps = decodeEventStream().steps;
  for (let at = 0; at < wire.length; at += 8) {
    const piece = wire.subarray(at, at + 8);
    buffer.set(piece);
    steps.transform(buffer.subarray(0, piece.length), { enqueue: (m) => out.push(m) });
  }
  assertEquals(out.length, 1);
  assertEquals(new TextDecoder().decode(out[0].payload), '{"content":"reused buffers"}');
});
