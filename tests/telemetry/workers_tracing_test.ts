/**
 * `gateway serve --workers 2` as a real process tree exporting to a real Jaeger with
 * `telemetry.log_requests` on: each worker's spans carry its own `gateway.worker` resource attribute,
 * and each request writes one JSON log line (through the supervisor) whose trace and span ids are the
 * exported request span's.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { join } from "node:path";
import { chatCompletion } from "../helpers/chat_fixtures.ts";
import { chatProvidersYaml, QUIET_KEY_CHECKS } from "../helpers/gateway.ts";
import { startMockUpstream } from "../helpers/mock_upstream.ts";
import { otlpBackendSkip, startOtlpBackend, tagValue } from "../helpers/otlp_backend.ts";
import { pinnedClients, startWorkers } from "../helpers/workers.ts";

Deno.test({
  name:
    "serve --workers 2: each worker exports with its own worker attribute and logs one JSON line per request",
  ignore: otlpBackendSkip("workers tracing"),
  async fn() {
    const backend = await startOtlpBackend();
    const mock = await startMockUpstream();
    mock.script({ json: chatCompletion("ok") });
    const home = await Deno.makeTempDir({ prefix: "gateway-workers-tracing-" });
    await Deno.writeTextFile(
      join(home, "config.yaml"),
      chatProvidersYaml([{ id: "a", prefix: "p", url: mock.url }]) +
        `metrics:\n  instance: node-7\ntelemetry:\n  enabled: true\n  endpoint: ${backend.tracesUrl}\n` +
        `  schedule_delay_ms: 20\n  log_requests: true\n` + QUIET_KEY_CHECKS,
    );
    const workers = await startWorkers(home, 2);
    try {
      assert(workers.url !== undefined, workers.printed());
      const clients = await pinnedClients(workers.url, 2);
      const sent = new Map<string, string>();
      let n = 0;
      for (const [worker, client] of clients) {
        const traceId = `${String(++n).padStart(2, "0")}${"ab".repeat(15)}`;
        const response = await client.fetch("/v1/chat/completions", {
          method: "POST",
          headers: { "content-type": "application/json", traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
          body: JSON.stringify({ model: "p/m1", messages: [{ role: "user", content: "hi" }] }),
        });
        assertEquals(response.status, 200);
        sent.set(traceId, worker);
      }
      const requestSpans = new Map<string, string>();
      for (const [traceId, worker] of sent) {
        const trace = await backend.waitForTrace(traceId, 2);
        const request = trace.spans.find((s) => tagValue(s.tags, "span.kind") === "server")!;
        requestSpans.set(traceId, request.spanID);
        const process = trace.processes[request.processID];
        assertEquals(tagValue(process.tags, "gateway.worker"), worker, `trace ${traceId} names its worker`);
        assertEquals(tagValue(process.tags, "service.instance.id"), "node-7");
      }
      for (const client of clients.values()) client.close();
      const { code } = await workers.stop();
      assertEquals(code, 0);
      const lines = (await workers.errors).split("\n").filter((line) => line.startsWith("{"));
      const records = lines.map((line) => JSON.parse(line)).filter((r) => r.msg === "request");
      assertEquals(records.length, sent.size, await workers.errors);
      for (const record of records) {
        assertEquals(record.level, "info");
        assertEquals(record.status, 200);
        assertEquals(record.trace_sampled, true);
        assertEquals(record.span_id, requestSpans.get(record.trace_id), "the line names the request span");
        assertEquals(typeof record.request_id, "string");
        assertEquals(record.input_tokens, 10);
      }
    } finally {
      await workers.stop();
      await mock.close();
      await backend.stop();
      await Deno.remove(home, { recursive: true });
    }
  },
});
