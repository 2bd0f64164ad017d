/** W3C traceparent/tracestate reading and writing, and id generation from a passed-in random source. */
import { assert, assertEquals, assertThrows } from "../helpers/assert.ts";
import { mulberry32 } from "../fuzz/fuzzer.ts";
import {
  extractTraceContext,
  formatTraceparent,
  parseTraceparent,
  parseTracestate,
  traceHeaders,
} from "../../src/telemetry/trace_context.ts";
import { IdGenerator, newSpanId, newTraceId, type RandomSource } from "../../src/telemetry/ids.ts";

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const SPAN = "00f067aa0ba902b7";

/** A seeded random source so ids are reproducible. */
function seeded(seed: number): RandomSource {
  const next = mulberry32(seed);
  return (bytes) => {
    for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(next() * 256);
  };
}

Deno.test("parseTraceparent() reads a version-00 header", () => {
  assertEquals(parseTraceparent(`00-${TRACE}-${SPAN}-01`), { traceId: TRACE, spanId: SPAN, flags: 1 });
  assertEquals(parseTraceparent(`00-${TRACE}-${SPAN}-00`), { traceId: TRACE, spanId: SPAN, flags: 0 });
});

Deno.test("parseTraceparent() rejects version ff, all-zero ids, uppercase hex and bad lengths", () => {
  for (
    const bad of [
      `ff-${TRACE}-${SPAN}-01`,
      `00-${"0".repeat(32)}-${SPAN}-01`,
      `00-${TRACE}-${"0".repeat(16)}-01`,
      `00-${TRACE.toUpperCase()}-${SPAN}-01`,
      `00-${TRACE}-${SPAN}-01-extra`,
      `00-${TRACE}-${SPAN}-1`,
      `0-${TRACE}-${SPAN}-01`,
      `00_${TRACE}-${SPAN}-01`,
      `00-${TRACE}-${SPAN}-zz`,
      "",
    ]
  ) {
    assertEquals(parseTraceparent(bad), null, bad);
  }
});

Deno.test("parseTraceparent() reads a future version by its first fields and keeps only the sampled flag", () => {
  assertEquals(parseTraceparent(`cc-${TRACE}-${SPAN}-03-what-the-future-holds`), {
    traceId: TRACE,
    spanId: SPAN,
    flags: 1,
  });
  assertEquals(parseTraceparent(`cc-${TRACE}-${SPAN}-01`), { traceId: TRACE, spanId: SPAN, flags: 1 });
  // A future version still needs a separator after the flags.
  assertEquals(parseTraceparent(`cc-${TRACE}-${SPAN}-01x`), null);
});

Deno.test("parseTracestate() keeps valid members and drops the header when one is invalid", () => {
  assertEquals(
    parseTracestate("rojo=00f067aa0ba902b7, congo=t61rcWkgMzE"),
    "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE",
  );
  assertEquals(parseTracestate("tenant@vendor=v,,  ,x=1"), "tenant@vendor=v,x=1");
  assertEquals(parseTracestate("Upper=1"), "");
  assertEquals(parseTracestate("a=1,a=2"), "", "a duplicated key invalidates the list");
  assertEquals(parseTracestate("a=x,b"), "", "a member without '='");
  assertEquals(parseTracestate("a=has=equals"), "");
  assertEquals(parseTracestate(Array.from({ length: 33 }, (_, i) => `k${i}=v`).join(",")), "");
  assertEquals(
    parseTracestate(Array.from({ length: 32 }, (_, i) => `k${i}=v`).join(",")).split(",").length,
    32,
  );
  assertEquals(parseTracestate(null), "");
});

Deno.test("extractTraceContext() ignores tracestate when traceparent is invalid", () => {
  const headers = new Headers({ traceparent: `00-${TRACE}-${SPAN}-01`, tracestate: "rojo=1" });
  assertEquals(extractTraceContext((n) => headers.get(n)), {
    traceId: TRACE,
    spanId: SPAN,
    flags: 1,
    traceState: "rojo=1",
    remote: true,
  });
  const bad = new Headers({ traceparent: "garbage", tracestate: "rojo=1" });
  assertEquals(extractTraceContext((n) => bad.get(n)), null);
  assertEquals(extractTraceContext(() => null), null);
});

Deno.test("formatTraceparent() and traceHeaders() write what parseTraceparent() reads", () => {
  assertEquals(formatTraceparent(TRACE, SPAN, true), `00-${TRACE}-${SPAN}-01`);
  assertEquals(parseTraceparent(formatTraceparent(TRACE, SPAN, false))?.flags, 0);
  assertEquals(traceHeaders(TRACE, SPAN, true, ""), { traceparent: `00-${TRACE}-${SPAN}-01` });
  assertEquals(traceHeaders(TRACE, SPAN, true, "a=1").tracestate, "a=1");
});

Deno.test("newTraceId()/newSpanId() are lowercase hex of the right size, reproducible from the seed", () => {
  const a = seeded(7);
  const b = seeded(7);
  const t = newTraceId(a);
  assert(/^[0-9a-f]{32}$/.test(t));
  assert(/^[0-9a-f]{16}$/.test(newSpanId(a)));
  assertEquals(newTraceId(b), t);
});

Deno.test("newTraceId() draws again on an all-zero draw and fails on a source that only gives zeros", () => {
  let calls = 0;
  const firstZero: RandomSource = (bytes) => {
    bytes.fill(calls++ === 0 ? 0 : 0xab);
  };
  assertEquals(newTraceId(firstZero), "ab".repeat(16));
  assertThrows(() => newSpanId((bytes) => bytes.fill(0)));
});

Deno.test("IdGenerator hands out distinct ids across pool refills and draws 4 KB at a time", () => {
  let draws = 0;
  const source = seeded(11);
  const ids = new IdGenerator((bytes) => {
    draws++;
    source(bytes);
  });
  const seen = new Set<string>();
  for (let i = 0; i < 1000; i++) {
    seen.add(ids.traceId());
    seen.add(ids.spanId());
  }
  assertEquals(seen.size, 2000);
  assertEquals(draws, Math.ceil((1000 * 24) / 4096));
});
