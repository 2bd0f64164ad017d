/** SpanBuilder: later values replace earlier ones, and caps bound what one span holds. */
import { assertEquals } from "../helpers/assert.ts";
import { MAX_ATTRIBUTES, MAX_EVENTS, SpanBuilder } from "../../src/telemetry/span_builder.ts";
import { int, str } from "../../src/telemetry/span.ts";

function builder(): SpanBuilder {
  return new SpanBuilder({
    traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
    spanId: "00f067aa0ba902b7",
    parentSpanId: "",
    parentIsRemote: false,
    traceState: "",
    flags: 1,
    name: "chat m",
    kind: 2,
    startTimeUnixNano: 1000n,
  });
}

Deno.test("SpanBuilder keeps the last value per key and ignores undefined", () => {
  const span = builder().set("a", str("1")).set("a", str("2")).set("b", undefined).end(2000n);
  assertEquals(span.attributes, [{ key: "a", value: str("2") }]);
});

Deno.test("SpanBuilder caps attributes and events, counting the events it drops", () => {
  const b = builder();
  for (let i = 0; i < MAX_ATTRIBUTES + 10; i++) b.set(`k${i}`, int(i));
  for (let i = 0; i < MAX_EVENTS + 5; i++) b.event("e", 1500n);
  const span = b.end(2000n);
  assertEquals(span.attributes.length, MAX_ATTRIBUTES);
  assertEquals(span.events.length, MAX_EVENTS);
  assertEquals(span.droppedEventsCount, 5);
});

Deno.test("SpanBuilder clamps an end before the start (the wall clock stepped back)", () => {
  assertEquals(builder().end(10n).endTimeUnixNano, 1000n);
});
