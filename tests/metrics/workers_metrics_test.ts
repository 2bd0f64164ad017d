/**
 * `/metrics` with `serve --workers 2`: whichever worker the kernel hands a scrape to answers with both
 * workers' series (told apart by the `worker` label), and their request counts add up to what was sent.
 * SharedMetrics alone: other instances, a duplicate worker label and a gone worker stay out.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { join } from "node:path";
import { chatCompletion } from "../helpers/chat_fixtures.ts";
import { chatProvidersYaml, QUIET_KEY_CHECKS } from "../helpers/gateway.ts";
import { startMockUpstream } from "../helpers/mock_upstream.ts";
import { parsePrometheusText, sumOf } from "../helpers/prom_text.ts";
import { MetricsRegistry } from "../../src/metrics/registry.ts";
import { type MetricsSnapshot, SharedMetrics } from "../../src/gateway/shared_metrics.ts";
import { waitFor } from "../helpers/wait.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;
const TOKEN = "workers-metrics-token-123456";

Deno.test("serve --workers 2: a scrape on either worker shows both workers' series and every request", async () => {
  const mock = await startMockUpstream();
  mock.script({ json: chatCompletion("ok") });
  const home = await Deno.makeTempDir({ prefix: "gateway-workers-metrics-" });
  await Deno.writeTextFile(
    join(home, "config.yaml"),
    chatProvidersYaml([{ id: "a", prefix: "p", url: mock.url }]) +
      `metrics:\n  enabled: true\n  token: ${TOKEN}\n  instance: node-1\n` + QUIET_KEY_CHECKS,
  );
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "serve", "--workers", "2", "--port", "0"],
    env: { GATEWAY_HOME: home, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  try {
    let printed = "";
    while (!printed.includes("workers\n")) {
      const { value, done } = await reader.read();
      if (done) break;
      printed += value;
    }
    const url = /listening on (http:\/\/\S+) with 2 workers/.exec(printed)?.[1];
    assert(url !== undefined, printed);
    const sent = 12;
    for (let i = 0; i < sent; i++) {
      const response = await fetch(`${url}/v1/chat/completions`, {
        method: "POST",
        // A new connection each time, so the kernel spreads requests over both workers.
        headers: { "content-type": "application/json", connection: "close" },
        body: JSON.stringify({ model: "p/m1", messages: [{ role: "user", content: "hi" }] }),
      });
      assertEquals(response.status, 200);
      await response.body?.cancel();
    }
    // Workers share every few seconds; poll until a scrape sees both with every request counted.
    let workers = new Set<string>();
    let total = 0;
    await waitFor(async () => {
      const scrape = await fetch(`${url}/metrics`, {
        headers: { authorization: `Bearer ${TOKEN}`, connection: "close" },
      });
      const families = parsePrometheusText(await scrape.text());
      workers = new Set(families.get("gateway_build_info")!.samples.map((s) => s.labels.worker));
      total = sumOf(families, "gateway_requests_total");
      return workers.size >= 2 && total >= sent;
    }, { what: `a scrape with both workers and ${sent} requests`, timeoutMs: 30_000, intervalMs: 500 });
    assertEquals([...workers].sort(), ["1", "2"]);
    assertEquals(total, sent);
  } finally {
    child.kill("SIGTERM");
    for (let r = await reader.read(); !r.done; r = await reader.read()) { /* drain */ }
    await child.status;
    await mock.close();
    await Deno.remove(home, { recursive: true });
  }
});

function snapshotOf(worker: string, instance: string, requests: number): MetricsSnapshot {
  const registry = new MetricsRegistry([["worker", worker], ["gateway_instance", instance]]);
  registry.counter("gateway_requests_total", "requests", ["status"]).inc(["200"], requests);
  return { origin: `${worker}:${instance}`, worker, instance, at: 0, families: registry.snapshot() };
}

Deno.test("SharedMetrics: merges its instance's other workers, ignores other instances and its own label, drops the gone", () => {
  let now = 0;
  const local = snapshotOf("1", "node-1", 3);
  const shared = new SharedMetrics(
    () => local.families,
    { origin: "me", worker: "1", instance: "node-1" },
    () => now,
  );
  shared.receive([
    snapshotOf("2", "node-1", 5),
    snapshotOf("2", "node-2", 100), // another instance: scraped as its own target
    snapshotOf("1", "node-1", 1000), // a second process with our label would collide with our series
  ]);
  const merged = parsePrometheusText(shared.render());
  assertEquals(sumOf(merged, "gateway_requests_total"), 8);
  assertEquals(
    merged.get("gateway_requests_total")!.samples.map((s) => s.labels.worker).sort(),
    ["1", "2"],
  );
  now = 60_000;
  assertEquals(sumOf(parsePrometheusText(shared.render()), "gateway_requests_total"), 3);
});
