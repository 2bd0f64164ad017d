/** Random spans for the encoder property tests, drawn from a seeded generator. */
import { Rng } from "../fuzz/fuzzer.ts";
import type {
  Attribute,
  AttributeValue,
  SpanData,
  SpanEvent,
  SpanKindValue,
} from "../../src/telemetry/span.ts";

const hexDigits = "0123456789abcdef";

function hexId(rng: Rng, length: number): string {
  let out = "";
  while (out.length < length || /^0+$/.test(out)) {
    out = "";
    for (let i = 0; i < length; i++) out += hexDigits[rng.int(16)];
  }
  return out;
}

function text(rng: Rng, max: number): string {
  const alphabet = ["a", "Z", "0", " ", "é", "漢", "🙂", "\n", '"', "\\", "\u0000"];
  let out = "";
  for (let i = rng.size(0, max); i > 0; i--) out += rng.pick(alphabet);
  return out;
}

function value(rng: Rng, depth: number): AttributeValue {
  switch (rng.int(depth > 0 ? 5 : 4)) {
    case 0:
      return { kind: "string", value: text(rng, 300) };
    case 1:
      return { kind: "bool", value: rng.chance(0.5) };
    case 2: {
      const choices = [0n, 1n, -1n, 127n, 128n, 2n ** 53n + 1n, 2n ** 63n - 1n, -(2n ** 63n)];
      return {
        kind: "int",
        value: rng.chance(0.5) ? rng.pick(choices) : BigInt(rng.int(1e9)) - 500_000_000n,
      };
    }
    case 3:
      return { kind: "double", value: rng.pick([0, -0.5, 1e-300, 123.456, Number.MAX_VALUE, rng.float()]) };
    default:
      return { kind: "array", values: Array.from({ length: rng.size(0, 5) }, () => value(rng, depth - 1)) };
  }
}

function attributes(rng: Rng, max: number): Attribute[] {
  return Array.from(
    { length: rng.size(0, max) },
    (_, i) => ({ key: `k${i}.${text(rng, 8)}`, value: value(rng, 2) }),
  );
}

/** A span with every field drawn at random (sizes skewed small, some large enough for multi-byte lengths). */
export function randomSpan(rng: Rng): SpanData {
  const start = BigInt(rng.int(2 ** 31)) * 1_000_000_000n + BigInt(rng.int(1e9));
  const events: SpanEvent[] = Array.from({ length: rng.size(0, 4) }, () => ({
    name: text(rng, 20),
    timeUnixNano: start + BigInt(rng.int(1e6)),
    attributes: attributes(rng, 4),
  }));
  return {
    traceId: hexId(rng, 32),
    spanId: hexId(rng, 16),
    parentSpanId: rng.chance(0.5) ? hexId(rng, 16) : "",
    traceState: rng.chance(0.3) ? "vendor=abc,other=1" : "",
    flags: rng.chance(0.8) ? 1 : 0,
    parentIsRemote: rng.chance(0.3),
    name: text(rng, 40),
    kind: (1 + rng.int(5)) as SpanKindValue,
    startTimeUnixNano: start,
    endTimeUnixNano: start + BigInt(rng.int(2 ** 40)),
    attributes: attributes(rng, 30),
    events,
    droppedEventsCount: rng.chance(0.2) ? rng.int(1000) : 0,
    status: rng.chance(0.3)
      ? { code: 2, message: text(rng, 50) }
      : rng.chance(0.5)
      ? { code: 1, message: "" }
      : {
        code: 0,
        message: "",
      },
  };
}
