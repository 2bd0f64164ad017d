/** createTelemetry(): what the composition root gets for settings that switch exporting off or on. */
import { assert, assertEquals } from "../helpers/assert.ts";
import { createTelemetry, type TelemetryDeps } from "../../src/telemetry/telemetry.ts";
import { resolveTelemetry, telemetrySchema } from "../../src/telemetry/config.ts";

const deps: TelemetryDeps = {
  post: () => Promise.reject(new Error("no network in this test")),
  timers: { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (id) => clearTimeout(id) },
  random: (bytes) => crypto.getRandomValues(bytes),
  nowUnixNanos: () => 1n,
  nowEpochMs: () => 0,
  redact: (t) => t,
  serviceVersion: "0",
  instance: "",
  worker: null,
  log: () => {},
};

Deno.test("createTelemetry() with exporting off has no exporter and a sink that records nothing", async () => {
  const telemetry = createTelemetry(
    resolveTelemetry(telemetrySchema.parse({}), () => undefined).settings,
    deps,
  );
  assertEquals(telemetry.exporter, null);
  const trace = telemetry.sink.start({
    requestId: "r",
    surface: "chat_completions",
    operation: "chat",
    requestModel: "m",
    stream: false,
    incoming: null,
  });
  assertEquals(trace.sampled, false);
  await telemetry.shutdown(10);
});

Deno.test("createTelemetry() with exporting on queues sampled spans in the exporter", async () => {
  const { settings } = resolveTelemetry(
    telemetrySchema.parse({ enabled: true, schedule_delay_ms: 60_000 }),
    () => undefined,
  );
  const telemetry = createTelemetry(settings, deps);
  const trace = telemetry.sink.start({
    requestId: "r",
    surface: "chat_completions",
    operation: "chat",
    requestModel: "m",
    stream: false,
    incoming: null,
  });
  assert(trace.sampled);
  trace.end({});
  assertEquals(telemetry.exporter?.stats().queued, 1);
  await telemetry.shutdown(50);
  const dropped = telemetry.exporter!.stats().dropped;
  assertEquals(
    dropped.export_failed + dropped.shutdown,
    1,
    "an unreachable endpoint costs the span, counted",
  );
});
