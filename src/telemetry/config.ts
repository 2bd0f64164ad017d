/**
 * The `telemetry:` section of the YAML and the standard OpenTelemetry environment variables, resolved
 * into one readonly TelemetrySettings. Environment variables win over the YAML: the OpenTelemetry SDK
 * configuration documents that "values set with environment variables override equivalent
 * configuration in code", and operators expect `OTEL_*` set on a deployment to take effect. Within the
 * environment, a traces-specific variable wins over the generic one, as the OTLP exporter spec says.
 * An unreadable environment value is ignored with a warning (also the spec's rule); an invalid YAML
 * value is a configuration error like any other.
 */
import { z } from "zod";
import { SAMPLER_NAMES, type SamplerName } from "./sampler.ts";

/** The wire protocols of OTLP over HTTP the exporter speaks. */
export const PROTOCOLS = ["http/protobuf", "http/json"] as const;

/** One of the protocols. */
export type OtlpProtocol = (typeof PROTOCOLS)[number];

const stringMap = z.record(z.string().min(1), z.string()).default({});

/** The YAML `telemetry:` section (attach it to `configFileSchema` as `telemetry: telemetrySchema`). */
export const telemetrySchema = z.preprocess(
  (v) => v ?? {},
  z.strictObject({
    enabled: z.boolean().default(false),
    /** The full traces URL (`…/v1/traces`), as `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` takes it. */
    endpoint: z.url({ protocol: /^https?$/ }).default("http://localhost:4318/v1/traces"),
    protocol: z.enum(PROTOCOLS).default("http/protobuf"),
    headers: stringMap,
    service_name: z.string().min(1).default("gateway"),
    sampler: z.enum(SAMPLER_NAMES).default("parentbased_always_on"),
    sampler_arg: z.number().min(0).max(1).optional(),
    resource_attributes: stringMap,
    capture_content: z.boolean().default(false),
    capture_max_chars: z.number().int().min(256).max(1024 * 1024).default(16 * 1024),
    max_queue_size: z.number().int().min(1).max(1_000_000).default(2048),
    max_batch_size: z.number().int().min(1).max(100_000).default(512),
    schedule_delay_ms: z.number().int().min(0).max(3_600_000).default(5000),
    export_timeout_ms: z.number().int().min(100).max(600_000).default(10_000),
    max_retries: z.number().int().min(0).max(20).default(5),
    /** One JSON line per request on stderr (docs/telemetry.md "Request log lines"); works with export off. */
    log_requests: z.boolean().default(false),
  }).refine((t) => t.max_batch_size <= t.max_queue_size, {
    message: "max_batch_size must not exceed max_queue_size",
    path: ["max_batch_size"],
  }),
);

/** The YAML section after validation and defaults. */
export type TelemetryYaml = z.output<typeof telemetrySchema>;

/** Everything telemetry needs, resolved once. */
export interface TelemetrySettings {
  readonly enabled: boolean;
  readonly endpoint: string;
  readonly protocol: OtlpProtocol;
  readonly headers: Readonly<Record<string, string>>;
  readonly serviceName: string;
  readonly sampler: SamplerName;
  readonly samplerArg: number | undefined;
  readonly resourceAttributes: Readonly<Record<string, string>>;
  readonly captureContent: boolean;
  readonly captureMaxChars: number;
  readonly maxQueueSize: number;
  readonly maxBatchSize: number;
  readonly scheduleDelayMs: number;
  readonly exportTimeoutMs: number;
  readonly maxRetries: number;
  /** Write one JSON log line per request. */
  readonly logRequests: boolean;
}

/** The settings and what was ignored in the environment (one sentence each, for the log). */
export interface ResolvedTelemetry {
  readonly settings: TelemetrySettings;
  readonly warnings: readonly string[];
}

/**
 * The traces URL for a generic `OTEL_EXPORTER_OTLP_ENDPOINT`: `v1/traces` is appended to its path
 * (with one slash), as the OTLP exporter specification requires for the non-signal-specific variable.
 */
export function tracesUrlFromBase(base: string): string {
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/v1/traces`;
  return url.toString();
}

/**
 * A `key=value,key2=value2` list (OTEL_EXPORTER_OTLP_HEADERS, OTEL_RESOURCE_ATTRIBUTES) with keys and
 * values percent-decoded and trimmed. Returns the pairs read and the entries that could not be.
 */
export function parseKeyValueList(text: string): { values: Record<string, string>; invalid: string[] } {
  const values: Record<string, string> = {};
  const invalid: string[] = [];
  for (const entry of text.split(",")) {
    if (entry.trim() === "") continue;
    const eq = entry.indexOf("=");
    try {
      if (eq <= 0) throw new Error("no '='");
      const key = decodeURIComponent(entry.slice(0, eq).trim());
      if (key === "") throw new Error("empty key");
      values[key] = decodeURIComponent(entry.slice(eq + 1).trim());
    } catch {
      // The entry itself may hold a credential (a header value): only its position is reported.
      invalid.push(`entry ${invalid.length + 1}`);
    }
  }
  return { values, invalid };
}

/** Reads one environment variable; "" counts as unset, as the OpenTelemetry spec says. */
type Env = (name: string) => string | undefined;

function envValue(env: Env, ...names: string[]): [string, string] | null {
  for (const name of names) {
    const value = env(name)?.trim();
    if (value !== undefined && value !== "") return [name, value];
  }
  return null;
}

/** Resolves the YAML section and the environment into settings (environment wins). */
export function resolveTelemetry(yaml: TelemetryYaml, env: Env): ResolvedTelemetry {
  const warnings: string[] = [];
  const ignore = (name: string, why: string) => warnings.push(`${name} ignored: ${why}`);

  let endpoint = yaml.endpoint;
  let endpointFromEnv = false;
  const tracesEndpoint = envValue(env, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");
  const baseEndpoint = envValue(env, "OTEL_EXPORTER_OTLP_ENDPOINT");
  if (tracesEndpoint !== null) {
    if (URL.canParse(tracesEndpoint[1]) && /^https?:$/.test(new URL(tracesEndpoint[1]).protocol)) {
      endpoint = tracesEndpoint[1];
      endpointFromEnv = true;
    } else ignore(tracesEndpoint[0], "not an http(s) URL");
  } else if (baseEndpoint !== null) {
    if (URL.canParse(baseEndpoint[1]) && /^https?:$/.test(new URL(baseEndpoint[1]).protocol)) {
      endpoint = tracesUrlFromBase(baseEndpoint[1]);
      endpointFromEnv = true;
    } else ignore(baseEndpoint[0], "not an http(s) URL");
  }

  let protocol: OtlpProtocol = yaml.protocol;
  const protocolEnv = envValue(env, "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL");
  if (protocolEnv !== null) {
    if ((PROTOCOLS as readonly string[]).includes(protocolEnv[1])) protocol = protocolEnv[1] as OtlpProtocol;
    else {ignore(
        protocolEnv[0],
        `"${protocolEnv[1]}" is not one of ${PROTOCOLS.join(", ")} (grpc is not supported)`,
      );}
  }

  const headers = { ...yaml.headers };
  // Generic first, then traces-specific, so a key in both takes the traces-specific value.
  for (const name of ["OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_TRACES_HEADERS"]) {
    const value = envValue(env, name);
    if (value === null) continue;
    const parsed = parseKeyValueList(value[1]);
    Object.assign(headers, parsed.values);
    for (const entry of parsed.invalid) ignore(`${name} ${entry}`, "not key=value (percent-encoded)");
  }

  const resourceAttributes = { ...yaml.resource_attributes };
  const resourceEnv = envValue(env, "OTEL_RESOURCE_ATTRIBUTES");
  if (resourceEnv !== null) {
    const parsed = parseKeyValueList(resourceEnv[1]);
    Object.assign(resourceAttributes, parsed.values);
    for (const entry of parsed.invalid) ignore(`OTEL_RESOURCE_ATTRIBUTES ${entry}`, "not key=value");
  }

  // OTEL_SERVICE_NAME wins over a service.name in OTEL_RESOURCE_ATTRIBUTES (the resource SDK's rule).
  const serviceName = envValue(env, "OTEL_SERVICE_NAME")?.[1] ?? resourceAttributes["service.name"] ??
    yaml.service_name;
  delete resourceAttributes["service.name"];

  let sampler: SamplerName = yaml.sampler;
  const samplerEnv = envValue(env, "OTEL_TRACES_SAMPLER");
  if (samplerEnv !== null) {
    const name = samplerEnv[1].toLowerCase();
    if ((SAMPLER_NAMES as readonly string[]).includes(name)) sampler = name as SamplerName;
    else ignore(samplerEnv[0], `"${samplerEnv[1]}" is not one of ${SAMPLER_NAMES.join(", ")}`);
  }
  let samplerArg = yaml.sampler_arg;
  const argEnv = envValue(env, "OTEL_TRACES_SAMPLER_ARG");
  if (argEnv !== null) {
    const n = Number(argEnv[1]);
    if (Number.isFinite(n) && n >= 0 && n <= 1) samplerArg = n;
    else ignore(argEnv[0], `"${argEnv[1]}" is not a ratio between 0 and 1`);
  }

  const int = (names: string[], fallback: number, min: number): number => {
    const value = envValue(env, ...names);
    if (value === null) return fallback;
    const n = Number(value[1]);
    if (Number.isInteger(n) && n >= min) return n;
    ignore(value[0], `"${value[1]}" is not an integer ≥ ${min}`);
    return fallback;
  };
  const maxQueueSize = int(["OTEL_BSP_MAX_QUEUE_SIZE"], yaml.max_queue_size, 1);
  let maxBatchSize = int(["OTEL_BSP_MAX_EXPORT_BATCH_SIZE"], yaml.max_batch_size, 1);
  if (maxBatchSize > maxQueueSize) {
    warnings.push(
      `the batch size ${maxBatchSize} exceeds the queue size ${maxQueueSize}; using ${maxQueueSize}`,
    );
    maxBatchSize = maxQueueSize;
  }

  const disabled = envValue(env, "OTEL_SDK_DISABLED")?.[1].toLowerCase() === "true" ||
    envValue(env, "OTEL_TRACES_EXPORTER")?.[1].toLowerCase() === "none";

  return {
    settings: {
      // Setting an OTLP endpoint in the environment is how operators switch exporting on.
      enabled: !disabled && (yaml.enabled || endpointFromEnv),
      endpoint,
      protocol,
      headers,
      serviceName,
      sampler,
      samplerArg,
      resourceAttributes,
      captureContent: yaml.capture_content,
      captureMaxChars: yaml.capture_max_chars,
      maxQueueSize,
      maxBatchSize,
      scheduleDelayMs: int(["OTEL_BSP_SCHEDULE_DELAY"], yaml.schedule_delay_ms, 0),
      exportTimeoutMs: int(
        ["OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", "OTEL_EXPORTER_OTLP_TIMEOUT"],
        yaml.export_timeout_ms,
        1,
      ),
      maxRetries: yaml.max_retries,
      logRequests: yaml.log_requests,
    },
    warnings,
  };
}
