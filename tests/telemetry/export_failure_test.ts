/**
 * A gateway whose OTLP endpoint is a black hole (accepts TCP, never answers), a slow endpoint (answers
 * only when the test lets it) or one answering 500: requests are unaffected, the span queue stays at
 * its bound, and the drops and failures are counted in /metrics.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { chatCompletion, post } from "../helpers/chat_fixtures.ts";
import { chatProvidersYaml, startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { startMockUpstream } from "../helpers/mock_upstream.ts";
import { parsePrometheusText, sumOf } from "../helpers/prom_text.ts";
import { waitFor } from "../helpers/wait.ts";

const METRICS_TOKEN = "metrics-token-0123456789abcdef";
const QUEUE = 8;
const REQUESTS = 20;

/** An OTLP endpoint as the test scripts it. */
interface Sink {
  readonly url: string;
  /** Export requests it received (answered or not). */
  readonly received: () => number;
  close(): Promise<void>;
}

/** Accepts connections and never reads or answers them. */
function blackHole(): Sink {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  const accepting = (async () => {
    try {
      for await (const conn of listener) held.push(conn);
    } catch { /* closed */ }
  })();
  return {
    url: `http://127.0.0.1:${listener.addr.port}/v1/traces`,
    received: () => held.length,
    async close() {
      listener.close();
      for (const conn of held) {
        try {
          conn.close();
        } catch { /* already closed by the exporter */ }
      }
      await accepting;
    },
  };
}

/** Answers every export with `status`, once `gate` resolves. */
function answering(status: number, gate: Promise<void> = Promise.resolve()): Sink {
  let received = 0;
  const controller = new AbortController();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: controller.signal, onListen() {} },
    async (req) => {
      received++;
      await req.arrayBuffer();
      await gate;
      return new Response(status === 200 ? "{}" : "no", { status });
    },
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}/v1/traces`,
    received: () => received,
    async close() {
      controller.abort();
      await server.finished;
    },
  };
}

async function gatewayExportingTo(sink: Sink, upstreamUrl: string, extra: string): Promise<TestGateway> {
  return await startTestGateway(
    chatProvidersYaml([{ id: "acct", prefix: "p", url: upstreamUrl }]) +
      `metrics:\n  enabled: true\n  token: ${METRICS_TOKEN}\n` +
      `telemetry:\n  enabled: true\n  endpoint: ${sink.url}\n  max_queue_size: ${QUEUE}\n` +
      `  max_batch_size: 4\n  schedule_delay_ms: 0\n  max_retries: 0\n${extra}`,
  );
}

async function scrape(gw: TestGateway) {
  const response = await fetch(`${gw.url}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  assertEquals(response.status, 200);
  return parsePrometheusText(await response.text());
}

/** Sends REQUESTS chat requests; every one must be answered as if telemetry were not there. */
async function sendRequests(gw: TestGateway): Promise<void> {
  for (let i = 0; i < REQUESTS; i++) {
    const response = await post(`${gw.url}/v1/chat/completions`, {
      model: "p/m1",
      messages: [{ role: "user", content: `hi ${i}` }],
    });
    assertEquals(response.status, 200);
    assertEquals((await response.json()).choices[0].message.content, "fine");
  }
}

const DROPPED = "gateway_otel_spans_dropped_total";

Deno.test("an OTLP endpoint that never answers: requests complete, the queue stays at its bound, drops are counted", async () => {
  const upstream = await startMockUpstream();
  upstream.script({ json: chatCompletion("fine") });
  const sink = blackHole();
  // A long export timeout keeps the first batch stuck in flight for the whole test.
  const gw = await gatewayExportingTo(sink, upstream.url, "  export_timeout_ms: 600000\n");
  try {
    await sendRequests(gw);
    const m = await scrape(gw);
    // Two spans per request (request + attempt); at most one batch in flight and QUEUE queued.
    assertEquals(sumOf(m, "gateway_otel_queue_spans"), QUEUE);
    assert(
      sumOf(m, DROPPED, { reason: "queue_full" }) >= 2 * REQUESTS - QUEUE - 4,
      "the overflow is dropped",
    );
    assertEquals(sumOf(m, "gateway_otel_spans_exported_total"), 0);
    assertEquals(sink.received(), 1, "one export request at a time");
  } finally {
    await gw.stop();
    await sink.close();
    await upstream.close();
  }
});

Deno.test("a slow OTLP endpoint: requests complete while it holds its answer, spans are exported once it answers", async () => {
  const upstream = await startMockUpstream();
  upstream.script({ json: chatCompletion("fine") });
  let release = () => {};
  const sink = answering(200, new Promise<void>((resolve) => release = resolve));
  const gw = await gatewayExportingTo(sink, upstream.url, "  export_timeout_ms: 600000\n");
  try {
    await sendRequests(gw);
    const held = await scrape(gw);
    assertEquals(sumOf(held, "gateway_otel_queue_spans"), QUEUE);
    assert(sumOf(held, DROPPED, { reason: "queue_full" }) > 0);
    release();
    // Every span is accounted for once the endpoint answers: exported or dropped (counted), none lost.
    await waitFor(async () => {
      const m = await scrape(gw);
      return sumOf(m, "gateway_otel_spans_exported_total") + sumOf(m, DROPPED) === 2 * REQUESTS;
    }, { what: "the queued spans exported once the endpoint answers" });
    const m = await scrape(gw);
    assertEquals(sumOf(m, "gateway_otel_queue_spans"), 0);
    assert(sumOf(m, "gateway_otel_spans_exported_total") > 0);
  } finally {
    release();
    await gw.stop();
    await sink.close();
    await upstream.close();
  }
});

Deno.test("an OTLP endpoint answering 500: requests complete, failed exports and their spans are counted", async () => {
  const upstream = await startMockUpstream();
  upstream.script({ json: chatCompletion("fine") });
  const sink = answering(500);
  const gw = await gatewayExportingTo(sink, upstream.url, "");
  try {
    await sendRequests(gw);
    await waitFor(async () => {
      const m = await scrape(gw);
      return sumOf(m, "gateway_otel_queue_spans") === 0 &&
        sumOf(m, DROPPED) === 2 * REQUESTS;
    }, { what: "every span dropped and counted" });
    const m = await scrape(gw);
    assert(sumOf(m, "gateway_otel_export_failures_total") >= 1);
    assert(sumOf(m, DROPPED, { reason: "export_failed" }) + sumOf(m, DROPPED, { reason: "rejected" }) > 0);
    assertEquals(sumOf(m, "gateway_otel_spans_exported_total"), 0);
    assert(sink.received() >= 1);
  } finally {
    await gw.stop();
    await sink.close();
    await upstream.close();
  }
});
