/** OTEL_TRACES_SAMPLER semantics: parent-based decisions and a deterministic trace-id ratio. */
import { assert, assertEquals } from "../helpers/assert.ts";
import { mulberry32 } from "../fuzz/fuzzer.ts";
import { createSampler, SAMPLER_NAMES, traceIdRatioSampler } from "../../src/telemetry/sampler.ts";
import type { TraceContext } from "../../src/telemetry/trace_context.ts";
import { newTraceId } from "../../src/telemetry/ids.ts";

const next = mulberry32(42);
const random = (bytes: Uint8Array) => {
  for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(next() * 256);
};

function parent(sampled: boolean): TraceContext {
  return {
    traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
    spanId: "00f067aa0ba902b7",
    flags: sampled ? 1 : 0,
    traceState: "",
    remote: true,
  };
}

Deno.test("traceidratio keeps about the ratio of random traces and decides the same id the same way", () => {
  const sampler = traceIdRatioSampler(0.25);
  const ids = Array.from({ length: 20_000 }, () => newTraceId(random));
  const kept = ids.filter((id) => sampler.shouldSample(null, id)).length;
  assert(kept > 4600 && kept < 5400, `kept ${kept} of 20000 at 0.25`);
  for (const id of ids.slice(0, 100)) {
    assertEquals(sampler.shouldSample(null, id), traceIdRatioSampler(0.25).shouldSample(null, id));
  }
});

Deno.test("traceidratio decides from the rightmost 56 bits: a lower ratio keeps a subset of a higher one", () => {
  const low = traceIdRatioSampler(0.1);
  const high = traceIdRatioSampler(0.5);
  for (let i = 0; i < 2000; i++) {
    const id = newTraceId(random);
    if (low.shouldSample(null, id)) assert(high.shouldSample(null, id), id);
  }
  // The leading bytes do not matter; the low 56 bits at their maximum are always kept.
  assert(traceIdRatioSampler(0.0001).shouldSample(null, "00000000000000000" + "0ffffffffffffff"));
  assertEquals(traceIdRatioSampler(0.5).shouldSample(null, "ffffffffffffffffff" + "00000000000001"), false);
});

Deno.test("traceidratio at 0 keeps nothing and at 1 keeps everything", () => {
  const ids = Array.from({ length: 500 }, () => newTraceId(random));
  assertEquals(ids.filter((id) => traceIdRatioSampler(0).shouldSample(null, id)).length, 0);
  assertEquals(ids.filter((id) => traceIdRatioSampler(1).shouldSample(null, id)).length, 500);
});

Deno.test("parentbased samplers follow the parent's sampled flag and ask the root for new traces", () => {
  const id = "4bf92f3577b34da6a3ce929d0e0e4736";
  for (
    const name of ["parentbased_always_on", "parentbased_always_off", "parentbased_traceidratio"] as const
  ) {
    const sampler = createSampler(name, 0);
    assertEquals(sampler.shouldSample(parent(true), id), true, name);
    assertEquals(sampler.shouldSample(parent(false), id), false, name);
  }
  assertEquals(createSampler("parentbased_always_on").shouldSample(null, id), true);
  assertEquals(createSampler("parentbased_always_off").shouldSample(null, id), false);
  assertEquals(createSampler("parentbased_traceidratio", 0).shouldSample(null, id), false);
});

Deno.test("always_on/always_off/traceidratio ignore the parent", () => {
  const id = "4bf92f3577b34da6a3ce929d0e0e4736";
  assertEquals(createSampler("always_on").shouldSample(parent(false), id), true);
  assertEquals(createSampler("always_off").shouldSample(parent(true), id), false);
  assertEquals(createSampler("traceidratio", 0).shouldSample(parent(true), id), false);
});

Deno.test("createSampler() defaults a missing or out-of-range ratio to 1.0 and names every sampler", () => {
  const id = "4bf92f3577b34da6a3ce929d0e0e4736";
  assertEquals(createSampler("traceidratio").shouldSample(null, id), true);
  assertEquals(createSampler("traceidratio", 7).description, "TraceIdRatioBased{1}");
  assertEquals(
    createSampler("parentbased_traceidratio", 0.5).description,
    "ParentBased{root=TraceIdRatioBased{0.5}}",
  );
  for (const name of SAMPLER_NAMES) assert(createSampler(name).description.length > 0);
});
