/**
 * The batch exporter against real loopback endpoints that misbehave: one that accepts TCP and never
 * answers, one that answers slowly, one that answers 500, one that throttles. The request path's side
 * (enqueue) must stay O(1) and never wait; memory stays within the queue bound; every span is either
 * exported or counted as dropped.
 */
import { waitFor } from "../helpers/wait.ts";
import { assert, assertEquals } from "../helpers/assert.ts";
import {
  type BatchExporterDeps,
  BatchSpanExporter,
  rejectedSpans,
} from "../../src/telemetry/batch_exporter.ts";
import { ProtobufTraceEncoder } from "../../src/telemetry/otlp_protobuf.ts";
import { buildResource } from "../../src/telemetry/resource.ts";
import type { SpanData } from "../../src/telemetry/span.ts";
import { decodeExportTraceRequest } from "../helpers/otlp_decode.ts";

const resource = buildResource({
  serviceName: "t",
  serviceVersion: "0",
  instance: "",
  worker: null,
  extra: {},
});

function exporterFor(endpoint: string, overrides: Partial<BatchExporterDeps> = {}): BatchSpanExporter {
  return new BatchSpanExporter({
    endpoint,
    headers: { authorization: "Bearer test-token" },
    encoder: new ProtobufTraceEncoder(resource),
    post: async (url, headers, body, signal) => {
      const response = await fetch(url, { method: "POST", headers, body, signal });
      return {
        status: response.status,
        header: (name) => response.headers.get(name),
        body: new Uint8Array(await response.arrayBuffer()),
      };
    },
    timers: { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (id) => clearTimeout(id) },
    nowEpochMs: () => Date.now(),
    maxQueueSize: 100,
    maxBatchSize: 10,
    scheduleDelayMs: 10,
    exportTimeoutMs: 300,
    retry: { maxRetries: 1, baseDelayMs: 50, maxDelayMs: 200 },
    ...overrides,
  });
}

/** A small span with its own attribute payload (~1 KB), so retained spans would show in the heap. */
function span(i: number): SpanData {
  return {
    traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
    spanId: (i + 1).toString(16).padStart(16, "0"),
    parentSpanId: "",
    traceState: "",
    flags: 1,
    parentIsRemote: false,
    name: `span ${i}`,
    kind: 2,
    startTimeUnixNano: 1_000_000_000n,
    endTimeUnixNano: 2_000_000_000n,
    attributes: [{ key: "payload", value: { kind: "string", value: `${i}`.padEnd(1024, "x") } }],
    events: [],
    droppedEventsCount: 0,
    status: { code: 0, message: "" },
  };
}

function totalDropped(e: BatchSpanExporter): number {
  return Object.values(e.stats().dropped).reduce((a, b) => a + b, 0);
}

/** An OTLP endpoint whose answer the test chooses; it records what it received and how many at once. */
function endpoint(answer: (n: number) => Promise<Response> | Response) {
  const bodies: Uint8Array[] = [];
  const arrivals: number[] = [];
  const headers: Headers[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      arrivals.push(performance.now());
      headers.push(req.headers);
      bodies.push(new Uint8Array(await req.arrayBuffer()));
      return await answer(bodies.length);
    } finally {
      inFlight--;
    }
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/v1/traces`,
    bodies,
    arrivals,
    headers,
    maxInFlight: () => maxInFlight,
    close: () => server.shutdown(),
  };
}

/** Accepts TCP connections and never reads or answers. */
function blackHole() {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns: Deno.Conn[] = [];
  (async () => {
    try {
      for await (const conn of listener) conns.push(conn);
    } catch { /* closed */ }
  })();
  return {
    url: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}/v1/traces`,
    connections: () => conns.length,
    close() {
      listener.close();
      for (const c of conns) {
        try {
          c.close();
        } catch { /* already closed */ }
      }
    },
  };
}

Deno.test("BatchSpanExporter sends full batches at once, a partial one after the delay, with the configured headers", async () => {
  const server = endpoint(() => new Response(null, { status: 200 }));
  const exporter = exporterFor(server.url, { maxBatchSize: 5, scheduleDelayMs: 50 });
  try {
    for (let i = 0; i < 12; i++) exporter.enqueue(span(i));
    await waitFor(() => server.bodies.length >= 3, { what: "three export requests" });
    assertEquals(server.bodies.map((b) => decodeExportTraceRequest(b).spans.length), [5, 5, 2]);
    assertEquals(server.headers[0].get("content-type"), "application/x-protobuf");
    assertEquals(server.headers[0].get("authorization"), "Bearer test-token");
    const names = server.bodies.flatMap((b) => decodeExportTraceRequest(b).spans.map((s) => s.span.name));
    assertEquals(names, Array.from({ length: 12 }, (_, i) => `span ${i}`));
    assertEquals(exporter.stats().exported, 12);
    assertEquals(totalDropped(exporter), 0);
  } finally {
    await exporter.shutdown(1000);
    await server.close();
  }
});

Deno.test("BatchSpanExporter against a black hole: enqueue stays O(1), the queue stays bounded, drops are counted", async () => {
  const hole = blackHole();
  const exporter = exporterFor(hole.url, { maxQueueSize: 1000, maxBatchSize: 100, exportTimeoutMs: 200 });
  try {
    const before = Deno.memoryUsage().heapUsed;
    const n = 200_000;
    const started = performance.now();
    let slowest = 0;
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      exporter.enqueue(span(i));
      slowest = Math.max(slowest, performance.now() - t);
    }
    const elapsed = performance.now() - started;
    // Building 200k 1 KB spans dominates; the point is no enqueue waited on the network.
    assert(slowest < 50, `slowest enqueue took ${slowest.toFixed(1)} ms`);
    assert(elapsed < 5000, `200k enqueues took ${elapsed.toFixed(0)} ms`);
    const stats = exporter.stats();
    assert(stats.queued <= 1000, `queued ${stats.queued}`);
    assert(stats.dropped.queue_full >= n - 1000, `queue_full drops ${stats.dropped.queue_full}`);
    // 200k retained 1 KB spans would be over 200 MB; the bound keeps the growth to the queue and garbage.
    const grown = (Deno.memoryUsage().heapUsed - before) / 1e6;
    assert(grown < 80, `heap grew ${grown.toFixed(0)} MB`);

    await waitFor(() => hole.connections() >= 1 && exporter.stats().failedRequests >= 1, {
      what: "the exporter to connect to the black hole and time out",
    });
    assert(hole.connections() >= 1, "the exporter connected");
    assert(exporter.stats().failedRequests >= 1, "the timeout counts as a failed request");
  } finally {
    const t = performance.now();
    await exporter.shutdown(300);
    assert(performance.now() - t < 1000, "shutdown gives up at its deadline");
    hole.close();
  }
  const s = exporter.stats();
  assertEquals(s.queued, 0);
  assertEquals(s.exported, 0);
  assertEquals(totalDropped(exporter), 200_000, "every span is exported or counted as dropped");
});

Deno.test("BatchSpanExporter against a slow endpoint: one request in flight, requests unaffected, drops counted", async () => {
  const server = endpoint(async () => {
    await new Promise((r) => setTimeout(r, 300));
    return new Response(null, { status: 200 });
  });
  const exporter = exporterFor(server.url, { maxQueueSize: 50, maxBatchSize: 10, exportTimeoutMs: 2000 });
  try {
    let slowest = 0;
    for (let round = 0; round < 20; round++) {
      for (let i = 0; i < 20; i++) {
        const t = performance.now();
        exporter.enqueue(span(round * 20 + i));
        slowest = Math.max(slowest, performance.now() - t);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    assert(slowest < 20, `slowest enqueue ${slowest.toFixed(1)} ms`);
    assertEquals(server.maxInFlight(), 1);
    assert(exporter.stats().dropped.queue_full > 0, "a slow endpoint makes the queue overflow");
    assert(exporter.stats().queued <= 50);
  } finally {
    await exporter.shutdown(3000);
    await server.close();
  }
  const s = exporter.stats();
  assertEquals(s.exported + totalDropped(exporter), 400);
  assert(s.exported > 0);
});

Deno.test("BatchSpanExporter against an endpoint answering 500: not retried, spans counted as failed exports", async () => {
  const server = endpoint(() => new Response("boom", { status: 500 }));
  const changes: string[] = [];
  const exporter = exporterFor(server.url, {
    retry: { maxRetries: 3, baseDelayMs: 10, maxDelayMs: 50 },
    onStateChange: (healthy, detail) => changes.push(`${healthy} ${detail}`),
  });
  try {
    for (let i = 0; i < 25; i++) exporter.enqueue(span(i));
    await exporter.forceFlush();
    assertEquals(server.bodies.length, 3, "three batches, each sent once");
    const s = exporter.stats();
    assertEquals(s.failedRequests, 3);
    assertEquals(s.dropped.export_failed, 25);
    assertEquals(s.exported, 0);
    assertEquals(changes, ["false HTTP 500"], "one log line when exporting starts failing");
  } finally {
    await exporter.shutdown(500);
    await server.close();
  }
});

Deno.test("BatchSpanExporter hands a body back to its encoder once its export is answered, never after a failure", async () => {
  let failing = false;
  const server = endpoint(() => new Response(null, { status: failing ? 500 : 200 }));
  const released: Uint8Array[] = [];
  const sealed: Uint8Array[] = [];
  const real = new ProtobufTraceEncoder(resource);
  const exporter = exporterFor(server.url, {
    encoder: {
      contentType: real.contentType,
      add: (s) => real.add(s),
      seal: () => {
        const body = real.seal();
        sealed.push(body);
        return body;
      },
      release: (body) => {
        released.push(body);
        real.release(body);
      },
    },
  });
  try {
    for (let i = 0; i < 20; i++) exporter.enqueue(span(i));
    await exporter.forceFlush();
    assertEquals(released.length, 2);
    assertEquals(released, sealed, "each answered batch's own body, once");
    failing = true;
    for (let i = 20; i < 30; i++) exporter.enqueue(span(i));
    await exporter.forceFlush();
    assertEquals(sealed.length, 3);
    assertEquals(released.length, 2, "a failed batch's body is left to the collector");
    // What the endpoint received is what was encoded, batch after batch, in reused memory.
    const names = server.bodies.flatMap((b) => decodeExportTraceRequest(b).spans.map((s) => s.span.name));
    assertEquals(names, Array.from({ length: 30 }, (_, i) => `span ${i}`));
  } finally {
    await exporter.shutdown(500);
    await server.close();
  }
});

Deno.test("BatchSpanExporter retries 503 after Retry-After, capped by maxDelayMs, then succeeds", async () => {
  const server = endpoint((n) =>
    n === 1
      ? new Response(null, { status: 503, headers: { "retry-after": "1" } })
      : n === 2
      ? new Response(null, { status: 429, headers: { "retry-after": "3600" } })
      : new Response(null, { status: 200 })
  );
  const exporter = exporterFor(server.url, { retry: { maxRetries: 3, baseDelayMs: 10, maxDelayMs: 1200 } });
  try {
    for (let i = 0; i < 3; i++) exporter.enqueue(span(i));
    await exporter.forceFlush();
    assertEquals(server.bodies.length, 3);
    const [a, b, c] = server.arrivals;
    assert(b - a >= 900 && b - a < 1150, `Retry-After: 1 honoured (${(b - a).toFixed(0)} ms)`);
    assert(c - b >= 1150 && c - b < 2500, `Retry-After: 3600 capped (${(c - b).toFixed(0)} ms)`);
    assertEquals(exporter.stats().exported, 3);
    assertEquals(exporter.stats().failedRequests, 2);
  } finally {
    await exporter.shutdown(500);
    await server.close();
  }
});

Deno.test("BatchSpanExporter counts spans the endpoint rejects in a partial success", async () => {
  // ExportTraceServiceResponse{partial_success{rejected_spans: 2}}
  const server = endpoint(() =>
    new Response(new Uint8Array([0x0a, 0x02, 0x08, 0x02]), {
      headers: { "content-type": "application/x-protobuf" },
    })
  );
  const exporter = exporterFor(server.url);
  try {
    for (let i = 0; i < 5; i++) exporter.enqueue(span(i));
    await exporter.forceFlush();
    assertEquals(exporter.stats().exported, 3);
    assertEquals(exporter.stats().dropped.rejected, 2);
  } finally {
    await exporter.shutdown(500);
    await server.close();
  }
  assertEquals(
    rejectedSpans(new TextEncoder().encode('{"partialSuccess":{"rejectedSpans":"4"}}'), "application/json"),
    4,
  );
  assertEquals(rejectedSpans(new Uint8Array(), "application/x-protobuf"), 0);
});

Deno.test("BatchSpanExporter.shutdown() flushes what is queued and refuses later spans", async () => {
  const server = endpoint(() => new Response(null, { status: 200 }));
  const exporter = exporterFor(server.url, { scheduleDelayMs: 60_000, maxBatchSize: 50 });
  for (let i = 0; i < 7; i++) exporter.enqueue(span(i));
  await exporter.shutdown(2000);
  assertEquals(exporter.stats().exported, 7);
  exporter.enqueue(span(8));
  assertEquals(exporter.stats().dropped.shutdown, 1);
  await server.close();
});

Deno.test("BatchSpanExporter survives an encoder that throws and keeps exporting what it encoded", async () => {
  const server = endpoint(() => new Response(null, { status: 200 }));
  const real = new ProtobufTraceEncoder(resource);
  let calls = 0;
  const exporter = exporterFor(server.url, {
    encoder: {
      contentType: real.contentType,
      // Every third span fails half-way through its encoding: the batch must not keep its half.
      add: (s) => {
        if (calls++ % 3 === 0) {
          real.add({
            ...s,
            attributes: () => {
              throw new Error("encoder bug");
            },
          });
        }
        real.add(s);
      },
      seal: () => real.seal(),
      release: (body) => real.release(body),
    },
  });
  try {
    for (let i = 0; i < 12; i++) exporter.enqueue(span(i));
    await exporter.forceFlush();
    assertEquals(exporter.stats().dropped.export_failed, 4);
    assertEquals(exporter.stats().exported, 8);
    const sent = server.bodies.flatMap((b) => decodeExportTraceRequest(b).spans.map((s) => s.span.name));
    assertEquals(sent, [1, 2, 4, 5, 7, 8, 10, 11].map((i) => `span ${i}`));
  } finally {
    await exporter.shutdown(500);
    await server.close();
  }
});

Deno.test("BatchSpanExporter.shutdown() past its deadline starts no further export, even with batches left", async () => {
  // An endpoint that never answers: each request ends only when its signal aborts.
  let requests = 0;
  const postNever = (_url: string, _headers: unknown, _body: unknown, signal: AbortSignal) => {
    requests++;
    return new Promise<never>((_, reject) => {
      signal.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
    });
  };
  // Timers the test fires by hand: the export timeout never fires, the shutdown deadline when told.
  const pending = new Map<number, { fn: () => void; ms: number }>();
  let nextId = 0;
  const timers = {
    setTimeout: (fn: () => void, ms: number) => {
      const id = ++nextId;
      pending.set(id, { fn, ms });
      return id as unknown as ReturnType<typeof setTimeout>;
    },
    clearTimeout: (id: ReturnType<typeof setTimeout>) => void pending.delete(id as unknown as number),
  };
  /** Fires every armed timer except export timeouts (the endpoint is never given up on by timeout). */
  const fire = () => {
    for (const [id, { fn, ms }] of [...pending.entries()]) {
      if (ms === 600_000) continue;
      pending.delete(id);
      fn();
    }
  };
  const exporter = exporterFor("http://127.0.0.1:9/v1/traces", {
    post: postNever,
    timers,
    maxBatchSize: 10,
    exportTimeoutMs: 600_000,
  });
  for (let i = 0; i < 35; i++) exporter.enqueue(span(i));
  fire(); // the batch timer: the first batch goes out and hangs
  await waitFor(() => requests === 1, { what: "the first export in flight" });
  let ended = false;
  const stopping = exporter.shutdown(1000).then(() => ended = true);
  // The shutdown deadline passes: the request in flight is aborted and no further batch may start.
  fire();
  await waitFor(() => ended, { what: "shutdown to end once its deadline passed" });
  assertEquals(requests, 1, "no export started after the deadline");
  await stopping;
  assertEquals(exporter.stats().queued, 0);
  assertEquals(totalDropped(exporter), 35, "every span is counted as dropped");
});
