/** The hand-written OTLP protobuf encoder, checked by decoding what it writes with an independent reader. */
import { assertEquals } from "../helpers/assert.ts";
import { Rng } from "../fuzz/fuzzer.ts";
import { decodeExportTraceRequest } from "../helpers/otlp_decode.ts";
import {
  encodeTracesProtobuf,
  ProtobufTraceEncoder,
  SPAN_FLAGS_HAS_IS_REMOTE,
} from "../../src/telemetry/otlp_protobuf.ts";
import { buildResource } from "../../src/telemetry/resource.ts";
import { randomSpan } from "./random_spans.ts";
import {
  attributeList,
  type AttributeSink,
  bool,
  double,
  int,
  type SpanData,
  str,
  strings,
} from "../../src/telemetry/span.ts";

const resource = buildResource({
  serviceName: "gateway-test",
  serviceVersion: "1.2.3",
  instance: "node-a",
  worker: 1,
  extra: { "deployment.environment": "ci" },
});

/** Two doubles are equal for the round trip when their bits are (so -0 and 0 differ). */
function normalise(span: SpanData): unknown {
  return JSON.parse(JSON.stringify(span, (_k, v) => {
    if (typeof v === "bigint") return `${v}n`;
    if (typeof v === "number" && Object.is(v, -0)) return "-0";
    return v;
  }));
}

Deno.test("ProtobufTraceEncoder: 300 random batches through one encoder decode to the spans that were encoded", () => {
  const rng = new Rng(20261128);
  // One encoder for every batch, as an exporter uses it: its reused buffer and key cache must not leak
  // one batch into the next.
  const encoder = new ProtobufTraceEncoder(resource);
  for (let round = 0; round < 300; round++) {
    const spans = Array.from({ length: rng.size(0, 12) }, () => randomSpan(rng));
    for (const span of spans) encoder.add(span);
    const body = encoder.seal();
    assertEquals(
      body,
      encodeTracesProtobuf(resource, spans),
      `round ${round}: same bytes as a fresh encoder`,
    );
    const decoded = decodeExportTraceRequest(body);
    assertEquals(decoded.resource, resource, `round ${round}`);
    assertEquals(decoded.spans.map((d) => normalise(d.span)), spans.map(normalise), `round ${round}`);
    for (const d of decoded.spans) {
      assertEquals(d.otlpFlags & SPAN_FLAGS_HAS_IS_REMOTE, SPAN_FLAGS_HAS_IS_REMOTE);
    }
    // Most bodies are handed back, as an exporter does once their export is answered: later batches
    // are written into their memory, and must come out the same.
    if (round % 4 !== 0) encoder.release(body);
  }
});

Deno.test("ProtobufTraceEncoder: a released body's memory holds a later batch; a body not released is never written again", () => {
  const rng = new Rng(7);
  const encoder = new ProtobufTraceEncoder(resource);
  const batch = () => {
    for (let i = 0; i < 20; i++) encoder.add(randomSpan(rng));
    return encoder.seal();
  };
  const first = batch();
  const firstBytes = first.slice();
  const second = batch();
  const secondBytes = second.slice();
  const third = batch();
  assertEquals(first, firstBytes, "not released: left as it was");
  encoder.release(first);
  const fourth = batch();
  const fifth = batch();
  assertEquals(fifth.buffer === first.buffer, true, "the released memory holds the batch after next");
  assertEquals(fourth.buffer === first.buffer, false, "the open batch's buffer was already chosen");
  assertEquals(second, secondBytes, "never released: never written again");
  for (const body of [second, third, fourth, fifth]) {
    assertEquals(decodeExportTraceRequest(body).spans.length, 20);
  }
});

Deno.test("encodeTracesProtobuf(): a 1 MB attribute gets a multi-byte length prefix at every level", () => {
  const rng = new Rng(1);
  const span = {
    ...randomSpan(rng),
    attributes: [{ key: "big", value: { kind: "string" as const, value: "x".repeat(1 << 20) } }],
  };
  const decoded = decodeExportTraceRequest(encodeTracesProtobuf(resource, [span]));
  assertEquals(normalise(decoded.spans[0].span), normalise(span));
});

Deno.test("encodeTracesProtobuf(): known bytes for a minimal span (ids, fixed64 times, flags)", () => {
  const span: SpanData = {
    traceId: "0102030405060708090a0b0c0d0e0f10",
    spanId: "1112131415161718",
    parentSpanId: "",
    traceState: "",
    flags: 1,
    parentIsRemote: false,
    name: "n",
    kind: 2,
    startTimeUnixNano: 1n,
    endTimeUnixNano: 2n,
    attributes: [],
    events: [],
    droppedEventsCount: 0,
    status: { code: 0, message: "" },
  };
  const body = encodeTracesProtobuf({ attributes: [], scopeName: "", scopeVersion: "" }, [span]);
  const spanBytes = [
    0x0a,
    16,
    ...Array.from({ length: 16 }, (_, i) => i + 1), // trace_id = 1
    0x12,
    8,
    ...Array.from({ length: 8 }, (_, i) => 0x11 + i), // span_id = 2
    0x2a,
    1,
    0x6e, // name = 5
    0x30,
    2, // kind = 6 (SERVER)
    0x39,
    1,
    0,
    0,
    0,
    0,
    0,
    0,
    0, // start_time_unix_nano = 7, fixed64
    0x41,
    2,
    0,
    0,
    0,
    0,
    0,
    0,
    0, // end_time_unix_nano = 8, fixed64
    0x85,
    0x01,
    0x01,
    0x01,
    0,
    0, // flags = 16, fixed32: sampled | HAS_IS_REMOTE
  ];
  const scopeSpans = [0x0a, 0, 0x12, spanBytes.length, ...spanBytes];
  const resourceSpans = [0x0a, 0, 0x12, scopeSpans.length, ...scopeSpans];
  assertEquals([...body], [0x0a, resourceSpans.length, ...resourceSpans]);
});

Deno.test("ProtobufTraceEncoder: attributes written through the sink (the request path's form) keep their types", () => {
  const span = {
    ...randomSpan(new Rng(7)),
    attributes: (sink: AttributeSink) => {
      sink.string("s", "héllo");
      sink.int("i", 42.9);
      sink.int("neg", -3);
      sink.int("big", 2 ** 53 + 2);
      sink.double("d", 0.25);
      sink.bool("b", true);
      sink.strings("list", ["stop", "length"]);
      sink.value("v", { kind: "int", value: 2n ** 63n - 1n });
    },
  };
  const decoded = decodeExportTraceRequest(encodeTracesProtobuf(resource, [span])).spans[0].span;
  assertEquals(decoded.attributes, [
    { key: "s", value: str("héllo") },
    { key: "i", value: int(42) },
    { key: "neg", value: int(-3n) },
    { key: "big", value: int(2n ** 53n + 2n) },
    { key: "d", value: double(0.25) },
    { key: "b", value: bool(true) },
    { key: "list", value: strings(["stop", "length"]) },
    { key: "v", value: int(2n ** 63n - 1n) },
  ]);
  assertEquals(decoded.attributes, attributeList(span.attributes));
});
