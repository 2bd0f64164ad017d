/** The `telemetry:` YAML section and the OTEL_* environment variables, resolved into settings. */
import { assert, assertEquals } from "../helpers/assert.ts";
import {
  parseKeyValueList,
  resolveTelemetry,
  telemetrySchema,
  tracesUrlFromBase,
} from "../../src/telemetry/config.ts";

const defaults = telemetrySchema.parse(undefined);
const env = (vars: Record<string, string>) => (name: string) => vars[name];

Deno.test("telemetrySchema: off by default, protobuf to localhost:4318, parent-based always-on, capture off", () => {
  assertEquals(defaults.enabled, false);
  assertEquals(defaults.endpoint, "http://localhost:4318/v1/traces");
  assertEquals(defaults.protocol, "http/protobuf");
  assertEquals(defaults.sampler, "parentbased_always_on");
  assertEquals(defaults.capture_content, false);
  assertEquals(defaults.max_queue_size, 2048);
  assertEquals(defaults.max_batch_size, 512);
});

Deno.test("telemetrySchema rejects unknown keys, bad protocols and a batch larger than the queue", () => {
  assert(!telemetrySchema.safeParse({ endpoit: "x" }).success);
  assert(!telemetrySchema.safeParse({ protocol: "grpc" }).success);
  assert(!telemetrySchema.safeParse({ sampler: "sometimes" }).success);
  assert(!telemetrySchema.safeParse({ sampler_arg: 1.5 }).success);
  assert(!telemetrySchema.safeParse({ endpoint: "ftp://x/v1/traces" }).success);
  assert(!telemetrySchema.safeParse({ max_queue_size: 10, max_batch_size: 20 }).success);
  assert(telemetrySchema.safeParse({ enabled: true, headers: { authorization: "Basic abc" } }).success);
});

Deno.test("tracesUrlFromBase() appends v1/traces to the generic endpoint's path", () => {
  assertEquals(tracesUrlFromBase("http://collector:4318"), "http://collector:4318/v1/traces");
  assertEquals(tracesUrlFromBase("http://collector:4318/"), "http://collector:4318/v1/traces");
  assertEquals(
    tracesUrlFromBase("https://cloud.langfuse.com/api/public/otel"),
    "https://cloud.langfuse.com/api/public/otel/v1/traces",
  );
});

Deno.test("parseKeyValueList() percent-decodes keys and values and reports unreadable entries by position", () => {
  assertEquals(parseKeyValueList("Authorization=Basic%20dXNlcjpwYXNz, x-team = a%2Cb ,"), {
    values: { Authorization: "Basic dXNlcjpwYXNz", "x-team": "a,b" },
    invalid: [],
  });
  assertEquals(parseKeyValueList("novalue,=x,bad=%E0%A4%A,ok=1"), {
    values: { ok: "1" },
    invalid: ["entry 1", "entry 2", "entry 3"],
  });
});

Deno.test("resolveTelemetry(): OTEL_EXPORTER_OTLP_ENDPOINT switches exporting on and gets /v1/traces", () => {
  const { settings } = resolveTelemetry(defaults, env({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://jaeger:4318" }));
  assertEquals(settings.enabled, true);
  assertEquals(settings.endpoint, "http://jaeger:4318/v1/traces");
});

Deno.test("resolveTelemetry(): the traces-specific endpoint is used as is and wins over the generic one", () => {
  const { settings } = resolveTelemetry(
    defaults,
    env({
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://a:4318",
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://b:9999/custom",
    }),
  );
  assertEquals(settings.endpoint, "http://b:9999/custom");
});

Deno.test("resolveTelemetry(): environment variables win over the YAML", () => {
  const yaml = telemetrySchema.parse({
    enabled: true,
    endpoint: "http://yaml:4318/v1/traces",
    protocol: "http/json",
    service_name: "from-yaml",
    sampler: "always_on",
    headers: { "x-a": "yaml", "x-b": "yaml" },
    resource_attributes: { "deployment.environment": "yaml", region: "eu" },
  });
  const { settings, warnings } = resolveTelemetry(
    yaml,
    env({
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://env:4318/v1/traces",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf",
      OTEL_SERVICE_NAME: "from-env",
      OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
      OTEL_TRACES_SAMPLER_ARG: "0.25",
      OTEL_EXPORTER_OTLP_HEADERS: "x-a=env,x-c=env",
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: "x-c=traces",
      OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=prod,service.name=ignored",
    }),
  );
  assertEquals(warnings, []);
  assertEquals(settings.endpoint, "http://env:4318/v1/traces");
  assertEquals(settings.protocol, "http/protobuf");
  assertEquals(settings.serviceName, "from-env");
  assertEquals(settings.sampler, "parentbased_traceidratio");
  assertEquals(settings.samplerArg, 0.25);
  assertEquals(settings.headers, { "x-a": "env", "x-b": "yaml", "x-c": "traces" });
  assertEquals(settings.resourceAttributes, { "deployment.environment": "prod", region: "eu" });
});

Deno.test("resolveTelemetry(): service.name from OTEL_RESOURCE_ATTRIBUTES is used when OTEL_SERVICE_NAME is unset", () => {
  const { settings } = resolveTelemetry(defaults, env({ OTEL_RESOURCE_ATTRIBUTES: "service.name=gw-eu" }));
  assertEquals(settings.serviceName, "gw-eu");
  assertEquals(settings.resourceAttributes, {});
});

Deno.test("resolveTelemetry(): unreadable environment values are ignored with a warning that shows no header value", () => {
  const { settings, warnings } = resolveTelemetry(
    telemetrySchema.parse({ enabled: true }),
    env({
      OTEL_EXPORTER_OTLP_ENDPOINT: "not a url",
      OTEL_EXPORTER_OTLP_PROTOCOL: "grpc",
      OTEL_TRACES_SAMPLER: "sometimes",
      OTEL_TRACES_SAMPLER_ARG: "2",
      OTEL_EXPORTER_OTLP_HEADERS: "secret-token-without-equals",
      OTEL_BSP_MAX_QUEUE_SIZE: "-1",
    }),
  );
  assertEquals(settings.endpoint, "http://localhost:4318/v1/traces");
  assertEquals(settings.protocol, "http/protobuf");
  assertEquals(settings.sampler, "parentbased_always_on");
  assertEquals(settings.maxQueueSize, 2048);
  assertEquals(warnings.length, 6);
  assert(!warnings.join(" ").includes("secret-token"), warnings.join("\n"));
});

Deno.test("resolveTelemetry(): OTEL_SDK_DISABLED and OTEL_TRACES_EXPORTER=none switch exporting off", () => {
  const on = telemetrySchema.parse({ enabled: true });
  assertEquals(resolveTelemetry(on, env({ OTEL_SDK_DISABLED: "true" })).settings.enabled, false);
  assertEquals(resolveTelemetry(on, env({ OTEL_TRACES_EXPORTER: "none" })).settings.enabled, false);
  assertEquals(
    resolveTelemetry(on, env({ OTEL_SDK_DISABLED: "" })).settings.enabled,
    true,
    "empty means unset",
  );
});

Deno.test("resolveTelemetry(): the batch processor variables set queue, batch, delay and timeout", () => {
  const { settings, warnings } = resolveTelemetry(
    defaults,
    env({
      OTEL_BSP_MAX_QUEUE_SIZE: "100",
      OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "500",
      OTEL_BSP_SCHEDULE_DELAY: "250",
      OTEL_EXPORTER_OTLP_TIMEOUT: "3000",
    }),
  );
  assertEquals([settings.maxQueueSize, settings.maxBatchSize], [100, 100]);
  assertEquals(warnings.length, 1, "a batch larger than the queue is cut to it");
  assertEquals(settings.scheduleDelayMs, 250);
  assertEquals(settings.exportTimeoutMs, 3000);
});

Deno.test("resolveTelemetry(): a Langfuse Basic header with base64 padding and '+' survives OTEL_EXPORTER_OTLP_HEADERS", () => {
  const { settings } = resolveTelemetry(
    defaults,
    env({
      OTEL_EXPORTER_OTLP_ENDPOINT: "https://cloud.langfuse.com/api/public/otel",
      OTEL_EXPORTER_OTLP_HEADERS:
        "Authorization=Basic%20cGstbGYtMTpzay+sZi0y==,x-langfuse-ingestion-version=4",
    }),
  );
  assertEquals(settings.endpoint, "https://cloud.langfuse.com/api/public/otel/v1/traces");
  assertEquals(settings.headers, {
    Authorization: "Basic cGstbGYtMTpzay+sZi0y==",
    "x-langfuse-ingestion-version": "4",
  });
});
