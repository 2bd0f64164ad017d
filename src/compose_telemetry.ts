/**
 * The composition root's telemetry wiring: the `telemetry:` section resolved with the OTEL_* variables,
 * one exporter per process (its resource names the instance and the worker), its `/metrics` families,
 * and the one-JSON-line-per-request log. See docs/telemetry.md.
 */
import type { Config } from "./config/mod.ts";
import { log, logRecord } from "./log.ts";
import type { MetricsRegistry } from "./metrics/registry.ts";
import {
  createTelemetry,
  EXPORT_ANSWER_MAX_BYTES,
  type ExportCounters,
  registerTelemetryMetrics,
  resolveTelemetry,
  type Telemetry,
  type TelemetrySettings,
} from "./telemetry/mod.ts";
import { RequestLogLineObserver } from "./gateway/request_log_line_observer.ts";
import { GATEWAY_VERSION } from "./version.ts";
import { ProviderClient } from "./executors/http_clients.ts";
import { clientPost } from "./executors/client_post.ts";

/** Telemetry wired for one process. */
export interface ComposedTelemetry {
  readonly settings: TelemetrySettings;
  readonly telemetry: Telemetry;
  /** Registers the exporter's `/metrics` families (once the registry exists) and starts feeding them. */
  registerMetrics(registry: MetricsRegistry): void;
  /** The request log-line observer, or null when `log_requests` is off. */
  readonly logLines: RequestLogLineObserver | null;
}

/** What telemetry takes from the root. */
export interface TelemetryRoot {
  readonly config: Config;
  readonly env: (name: string) => string | undefined;
  /** The wall clock (ms). */
  readonly now: () => number;
  readonly instance: string;
  /** `worker-2` under `serve --workers`; absent for a single process. */
  readonly processLabel?: string;
  /** The request-log redaction (configured secrets and credential shapes), read when used. */
  readonly redact: (text: string) => string;
}

/** Builds telemetry as the config and environment describe it. */
export function composeTelemetry(root: TelemetryRoot): ComposedTelemetry {
  const { settings, warnings } = resolveTelemetry(root.config.telemetry, root.env);
  for (const warning of warnings) log("warn", `telemetry: ${warning}`);
  const worker = root.processLabel?.startsWith("worker-") ? Number(root.processLabel.slice(7)) : null;
  // The exporter is built before the metrics registry exists; its counters are bound when it does.
  let counters: ExportCounters | null = null;
  // Span times need sub-millisecond precision: the wall clock once, then the monotonic clock's offset.
  const originMs = root.now() - performance.now();
  // Exports go out through the gateway's own HTTP/1.1 client (keep-alive, TLS; fetch through a proxy the
  // environment names): cheaper per export than fetch. Closed once the exporter has shut down.
  const exportClient = new ProviderClient(root.env);
  const composed = createTelemetry(settings, {
    post: clientPost(exportClient, EXPORT_ANSWER_MAX_BYTES),
    timers: { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (id) => clearTimeout(id) },
    random: (bytes) => crypto.getRandomValues(bytes),
    nowUnixNanos: () => BigInt(Math.round((originMs + performance.now()) * 1e6)),
    nowEpochMs: root.now,
    redact: root.redact,
    serviceVersion: GATEWAY_VERSION,
    instance: root.instance,
    worker: worker !== null && Number.isInteger(worker) ? worker : null,
    counters: {
      exported: (n) => counters?.exported(n),
      dropped: (reason, n) => counters?.dropped(reason, n),
      failed: () => counters?.failed(),
    },
    log,
  });
  if (settings.enabled) {
    log(
      "info",
      `exporting traces to ${settings.endpoint} (${settings.protocol}, sampler ${settings.sampler})`,
    );
  }
  const telemetry: Telemetry = {
    ...composed,
    shutdown: (deadlineMs) => composed.shutdown(deadlineMs).finally(() => exportClient.close()),
  };
  const exporter = telemetry.exporter;
  return {
    settings,
    telemetry,
    registerMetrics(registry) {
      if (exporter === null) return;
      counters = registerTelemetryMetrics(registry, () => exporter.stats().queued);
    },
    logLines: settings.logRequests ? new RequestLogLineObserver(root.redact, logRecord) : null,
  };
}
