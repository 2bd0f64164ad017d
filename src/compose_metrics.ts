/** The composition root's metrics wiring: the observer, its cluster sharing and the `/metrics` endpoint. */
import type { Config } from "./config/mod.ts";
import { GatewayMetrics } from "./gateway/metrics_observer.ts";
import type { GatewayRuntime } from "./gateway/runtime.ts";
import { type MetricsSnapshot, SharedMetrics } from "./gateway/shared_metrics.ts";
import type { MetricsEndpoint } from "./http/metrics_route.ts";
import { GATEWAY_VERSION } from "./version.ts";

/** Metrics wired into a runtime. */
export interface ComposedMetrics {
  readonly metrics: GatewayMetrics;
  readonly endpoint: MetricsEndpoint;
  /** Stops sharing with the other workers. */
  close(): void;
}

/** The instance's name: `metrics.instance`, GATEWAY_INSTANCE, or the host name (metrics and traces). */
export function instanceName(config: Config, env: (name: string) => string | undefined): string {
  return config.metrics.instance || env("GATEWAY_INSTANCE") || Deno.hostname();
}

/** Registers the metrics observer on `runtime` and shares its series with the instance's other workers. */
export function composeMetrics(
  runtime: GatewayRuntime,
  config: Config,
  env: (name: string) => string | undefined,
  now: () => number,
  processLabel: string | undefined,
): ComposedMetrics {
  // `worker-2` → "2"; a single process is worker "0".
  const worker = processLabel?.replace(/^worker-/, "") ?? env("GATEWAY_WORKER_ID") ?? "0";
  const instance = instanceName(config, env);
  const metrics = new GatewayMetrics({
    version: GATEWAY_VERSION,
    worker,
    instance,
    now,
    cooldowns: (at) => runtime.routing.active(at),
    budgets: () => runtime.control.budgets,
    spentToday: (keyId, at) => runtime.budgets.spentToday(keyId, at),
    rss: () => Deno.memoryUsage().rss,
    startedAt: now(),
  });
  runtime.observers.push(metrics);
  runtime.recorder.onRecord((row) => metrics.recorded(row));
  const shared = new SharedMetrics(
    () => metrics.snapshot(),
    { origin: runtime.cluster.origin, worker, instance },
    now,
  );
  // Shared only when metrics are on: nobody can read them otherwise.
  if (config.metrics.enabled) {
    shared.start(
      runtime.cluster.channel<MetricsSnapshot>("metrics", (snapshots) => shared.receive(snapshots)),
    );
  }
  return {
    metrics,
    endpoint: {
      enabled: config.metrics.enabled,
      token: env("GATEWAY_METRICS_TOKEN") || config.metrics.token,
      render: () => shared.render(),
    },
    close: () => shared.stop(),
  };
}
