/**
 * A real OTLP backend for tests: Jaeger all-in-one 1.76.0 (in-memory storage) on free loopback ports,
 * with its OTLP/HTTP receiver and its HTTP query API. The binary is built once from the Go module proxy
 * by `.ci/run` (see docs/telemetry.md for the command) into `${TMPDIR:-/tmp}/gateway-jaeger/
 * jaeger-1.76.0/all-in-one`, or `GATEWAY_JAEGER_BIN`. A test that needs it declares
 * `ignore: otlpBackendSkip(name)`: without the binary it is ignored and prints why.
 */
import { join } from "node:path";

/** The Jaeger release the tests run against. */
export const JAEGER_VERSION = "1.76.0";

/** Where the built binary is expected. */
export function jaegerBinaryPath(): string {
  const configured = Deno.env.get("GATEWAY_JAEGER_BIN");
  if (configured !== undefined && configured !== "") return configured;
  const tmp = Deno.env.get("TMPDIR") || "/tmp";
  return join(tmp, "gateway-jaeger", `jaeger-${JAEGER_VERSION}`, "all-in-one");
}

/** Why the OTLP backend cannot run here, or null when it can. */
export function otlpBackendUnavailable(): string | null {
  const path = jaegerBinaryPath();
  try {
    const info = Deno.statSync(path);
    if (!info.isFile || ((info.mode ?? 0o755) & 0o111) === 0) return `${path} is not an executable file`;
    return null;
  } catch {
    return `Jaeger ${JAEGER_VERSION} not built at ${path} (.ci/run builds it from the Go module proxy; docs/telemetry.md)`;
  }
}

/** True (after printing one line naming the test and the reason) when the backend cannot run here. */
export function otlpBackendSkip(test: string): boolean {
  const reason = otlpBackendUnavailable();
  if (reason === null) return false;
  console.warn(`SKIPPED: ${test}: ${reason}`);
  return true;
}

/** A tag, log field or process tag as the Jaeger query API returns it. */
export interface JaegerKeyValue {
  readonly key: string;
  readonly type: "string" | "bool" | "int64" | "float64" | "binary";
  readonly value: string | number | boolean;
}

/** One span as the Jaeger query API (`/api/traces`) returns it; times in microseconds. */
export interface JaegerSpan {
  readonly traceID: string;
  readonly spanID: string;
  readonly operationName: string;
  readonly references: readonly { refType: string; traceID: string; spanID: string }[];
  readonly startTime: number;
  readonly duration: number;
  readonly tags: readonly JaegerKeyValue[];
  readonly logs: readonly { timestamp: number; fields: readonly JaegerKeyValue[] }[];
  readonly processID: string;
}

/** One trace with its processes (resources). */
export interface JaegerTrace {
  readonly traceID: string;
  readonly spans: readonly JaegerSpan[];
  readonly processes: Readonly<Record<string, { serviceName: string; tags: readonly JaegerKeyValue[] }>>;
}

/** A running Jaeger. */
export interface OtlpBackend {
  /** The OTLP/HTTP traces URL (`…/v1/traces`). */
  readonly tracesUrl: string;
  /** The query API's base URL. */
  readonly queryUrl: string;
  /** The trace, or null when Jaeger has none with this id. */
  trace(traceId: string): Promise<JaegerTrace | null>;
  /** Polls until the trace has at least `spans` spans (export and ingestion are asynchronous). */
  waitForTrace(traceId: string, spans: number, timeoutMs?: number): Promise<JaegerTrace>;
  /** The most recent traces of a service. */
  traces(service: string, limit?: number): Promise<JaegerTrace[]>;
  stop(): Promise<void>;
}

function freePorts(n: number): number[] {
  // Hold all listeners until every port is known, so the same port is not handed out twice.
  const listeners = Array.from({ length: n }, () => Deno.listen({ hostname: "127.0.0.1", port: 0 }));
  const ports = listeners.map((l) => (l.addr as Deno.NetAddr).port);
  for (const l of listeners) l.close();
  return ports;
}

/** The tag's value by key, or undefined. */
export function tagValue(tags: readonly JaegerKeyValue[], key: string): JaegerKeyValue["value"] | undefined {
  return tags.find((t) => t.key === key)?.value;
}

/** Starts Jaeger on free loopback ports and waits until it is ready. */
export async function startOtlpBackend(): Promise<OtlpBackend> {
  const reason = otlpBackendUnavailable();
  if (reason !== null) throw new Error(reason);
  const [admin, collectorGrpc, collectorHttp, otlpGrpc, otlpHttp, queryGrpc, queryHttp] = freePorts(7);
  const at = (port: number) => `127.0.0.1:${port}`;
  const child = new Deno.Command(jaegerBinaryPath(), {
    args: [
      `--admin.http.host-port=${at(admin)}`,
      `--collector.grpc-server.host-port=${at(collectorGrpc)}`,
      `--collector.http-server.host-port=${at(collectorHttp)}`,
      `--collector.otlp.grpc.host-port=${at(otlpGrpc)}`,
      `--collector.otlp.http.host-port=${at(otlpHttp)}`,
      `--query.grpc-server.host-port=${at(queryGrpc)}`,
      `--query.http-server.host-port=${at(queryHttp)}`,
      "--memory.max-traces=10000",
      "--log-level=warn",
    ],
    env: { SPAN_STORAGE_TYPE: "memory" },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  // Drained so a chatty Jaeger never blocks on a full pipe; the tail explains a failed start.
  let tail = "";
  const drained = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of child.stderr) tail = (tail + decoder.decode(chunk)).slice(-4000);
  })().catch(() => {});
  const status = child.status;
  let exited = false;
  status.then(() => exited = true);

  const stop = async () => {
    if (!exited) {
      try {
        child.kill("SIGTERM");
      } catch { /* already gone */ }
      // Jaeger waits for idle keep-alive connections on SIGTERM; its in-memory data is throwaway.
      const timer = setTimeout(() => {
        try {
          child.kill("SIGKILL");
        } catch { /* already gone */ }
      }, 500);
      await status;
      clearTimeout(timer);
    }
    await drained;
  };

  const deadline = Date.now() + 30_000;
  for (;;) {
    if (exited) {
      await drained;
      throw new Error(`Jaeger exited during start: ${tail}`);
    }
    try {
      const res = await fetch(`http://${at(admin)}/`);
      const body = await res.text();
      if (res.ok && body.includes("Server available")) break;
    } catch { /* not listening yet */ }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`Jaeger not ready after 30 s: ${tail}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  const queryUrl = `http://${at(queryHttp)}`;
  const trace = async (traceId: string): Promise<JaegerTrace | null> => {
    const res = await fetch(`${queryUrl}/api/traces/${traceId}`);
    if (res.status === 404) {
      await res.body?.cancel();
      return null;
    }
    if (!res.ok) throw new Error(`Jaeger query answered ${res.status}: ${await res.text()}`);
    const body = await res.json() as { data: JaegerTrace[] | null };
    return body.data?.[0] ?? null;
  };
  return {
    tracesUrl: `http://${at(otlpHttp)}/v1/traces`,
    queryUrl,
    trace,
    async waitForTrace(traceId, spans, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const found = await trace(traceId);
        if (found !== null && found.spans.length >= spans) return found;
        if (Date.now() > until) {
          throw new Error(
            `trace ${traceId}: ${found?.spans.length ?? 0} of ${spans} spans after ${timeoutMs} ms`,
          );
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async traces(service, limit = 20) {
      const res = await fetch(`${queryUrl}/api/traces?service=${encodeURIComponent(service)}&limit=${limit}`);
      if (!res.ok) throw new Error(`Jaeger query answered ${res.status}: ${await res.text()}`);
      return ((await res.json()) as { data: JaegerTrace[] | null }).data ?? [];
    },
    stop,
  };
}
