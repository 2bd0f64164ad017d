/** The one-JSON-line-per-request log: level, ids that join trace and request-log row, one line always. */
import { assertEquals } from "../helpers/assert.ts";
import { requestLogLevel, requestLogLine } from "../../src/telemetry/request_log_line.ts";

const FIELDS = {
  requestId: "42",
  traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
  spanId: "00f067aa0ba902b7",
  sampled: true,
  surface: "chat_completions",
  model: "fast",
  status: 200,
  durationMs: 812.4,
  attempts: 1,
};

Deno.test("requestLogLine() writes the ids and facts as one JSON object, leaving absent facts out", () => {
  const line = requestLogLine(
    { ...FIELDS, provider: "openai", inputTokens: 10, outputTokens: 5 },
    (t) => t,
    false,
  );
  assertEquals(JSON.parse(line), {
    level: "info",
    msg: "request",
    request_id: "42",
    trace_id: "4bf92f3577b34da6a3ce929d0e0e4736",
    span_id: "00f067aa0ba902b7",
    trace_sampled: true,
    surface: "chat_completions",
    model: "fast",
    provider: "openai",
    status: 200,
    duration_ms: 812,
    attempts: 1,
    input_tokens: 10,
    output_tokens: 5,
  });
});

Deno.test("requestLogLine() keeps a multi-line, secret-bearing upstream error on one redacted line", () => {
  const line = requestLogLine(
    { ...FIELDS, status: 502, errorType: "upstream_error", errorMessage: "bad key sk-123456789\nstack…" },
    (t) => t.replace(/sk-\d+/g, "[redacted]"),
    false,
  );
  assertEquals(line.includes("\n"), false);
  assertEquals(JSON.parse(line).error, "bad key [redacted]\nstack…");
  assertEquals(JSON.parse(line).level, "error");
});

Deno.test("requestLogLine() starts with the syslog priority under journald", () => {
  assertEquals(requestLogLine({ ...FIELDS, status: 429 }, (t) => t, true).slice(0, 4), "<4>{");
  assertEquals([200, 404, 503].map(requestLogLevel), ["info", "warn", "error"]);
});
