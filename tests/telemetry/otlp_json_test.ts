/** The OTLP/JSON encoding: hex ids, string 64-bit integers, integer enums, lowerCamelCase keys. */
import { assert, assertEquals } from "../helpers/assert.ts";
import { Rng } from "../fuzz/fuzzer.ts";
import { encodeTracesJson, type JsonAnyValue, tracesJsonValue } from "../../src/telemetry/otlp_json.ts";
import { buildResource } from "../../src/telemetry/resource.ts";
import { attributeList, type AttributeValue, type SpanData } from "../../src/telemetry/span.ts";
import { randomSpan } from "./random_spans.ts";

const resource = buildResource({
  serviceName: "svc",
  serviceVersion: "1",
  instance: "",
  worker: null,
  extra: {},
});

function fromJson(v: JsonAnyValue): AttributeValue {
  if ("stringValue" in v) return { kind: "string", value: v.stringValue };
  if ("boolValue" in v) return { kind: "bool", value: v.boolValue };
  if ("intValue" in v) return { kind: "int", value: BigInt(v.intValue) };
  if ("doubleValue" in v) return { kind: "double", value: Number(v.doubleValue) };
  return { kind: "array", values: v.arrayValue.values.map(fromJson) };
}

type JsonKv = { key: string; value: JsonAnyValue };

Deno.test("encodeTracesJson(): random spans come back from the JSON text with every field", () => {
  const rng = new Rng(99);
  for (let round = 0; round < 100; round++) {
    const spans = Array.from({ length: rng.size(1, 6) }, () => randomSpan(rng));
    const parsed = JSON.parse(new TextDecoder().decode(encodeTracesJson(resource, spans)));
    const out = parsed.resourceSpans[0].scopeSpans[0].spans;
    spans.forEach((s: SpanData, i: number) => {
      const j = out[i];
      assertEquals(j.traceId, s.traceId);
      assertEquals(j.spanId, s.spanId);
      assertEquals(j.parentSpanId ?? "", s.parentSpanId);
      assertEquals(j.traceState ?? "", s.traceState);
      assertEquals(j.name, s.name);
      assertEquals(j.kind, s.kind);
      assertEquals(BigInt(j.startTimeUnixNano), s.startTimeUnixNano);
      assertEquals(BigInt(j.endTimeUnixNano), s.endTimeUnixNano);
      assertEquals(
        j.attributes.map((a: JsonKv) => ({ key: a.key, value: fromJson(a.value) })),
        attributeList(s.attributes).map((a) => ({
          key: a.key,
          value: a.value.kind === "double" && Object.is(a.value.value, -0)
            ? { kind: "double", value: 0 }
            : a.value,
        })),
      );
      assertEquals(j.events.length, s.events.length);
      assertEquals(j.droppedEventsCount ?? 0, s.droppedEventsCount);
      assertEquals(j.status?.code ?? 0, s.status.code);
      assertEquals(j.status?.message ?? "", s.status.message);
      assertEquals(j.flags & 0xff, s.flags);
    });
  }
});

Deno.test("tracesJsonValue(): 64-bit integers are decimal strings and nothing is base64", () => {
  const span: SpanData = {
    ...randomSpan(new Rng(3)),
    startTimeUnixNano: 1_795_843_702_074_000_123n,
    attributes: [{ key: "n", value: { kind: "int", value: 2n ** 63n - 1n } }, {
      key: "nan",
      value: { kind: "double", value: NaN },
    }],
  };
  const value = tracesJsonValue(resource, [span]) as {
    resourceSpans: { scopeSpans: { spans: Record<string, unknown>[] }[] }[];
  };
  const s = value.resourceSpans[0].scopeSpans[0].spans[0];
  assertEquals(s.startTimeUnixNano, "1795843702074000123");
  assertEquals(s.attributes, [{ key: "n", value: { intValue: "9223372036854775807" } }, {
    key: "nan",
    value: { doubleValue: "NaN" },
  }]);
  assert(/^[0-9a-f]{32}$/.test(String(s.traceId)));
  assert(!JSON.stringify(value).includes("_"), "keys are lowerCamelCase");
});
