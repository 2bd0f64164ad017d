/**
 * `GET /metrics` after real SDK traffic through a mock upstream: the exposition parses strictly, its
 * counters add up to the usage rows, and access is never anonymous. `x-gateway-overhead-ms` rides on
 * every response.
 */
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { DatabaseSync } from "node:sqlite";
import { assert, assertEquals } from "../helpers/assert.ts";
import { parsePrometheusText, type PromFamily, sumOf } from "../helpers/prom_text.ts";
import { type E2E, startE2E, textAnswer } from "../e2e/harness.ts";
import { chatProvidersYaml, startTestGateway } from "../helpers/gateway.ts";

const ADMIN_KEY = "static-admin-key-1234567890";
const METRICS_TOKEN = "metrics-token-0123456789abcdef";
const USAGE = { inputTotal: 100, cacheRead: 30, cacheWrite: 20, output: 40, reasoning: 10 };

const EXTRA_YAML = `api_keys:
  - key: ${ADMIN_KEY}
metrics:
  enabled: true
  token: ${METRICS_TOKEN}
  instance: test-node
pricing:
  up_chat/text:
    input_per_mtok: 3
    output_per_mtok: 15
    cache_creation_per_mtok: 3.75
    cache_read_per_mtok: 0.3
`;

async function setup(): Promise<E2E> {
  return await startE2E(
    { text: textAnswer("Hello from the gateway.", USAGE), refused: { status: 400 } },
    EXTRA_YAML,
  );
}

async function scrape(e: E2E, headers: Record<string, string>): Promise<Response> {
  return await fetch(`${e.url}/metrics`, { headers });
}

async function metricsOf(e: E2E): Promise<Map<string, PromFamily>> {
  const response = await scrape(e, { authorization: `Bearer ${METRICS_TOKEN}` });
  assertEquals(response.status, 200);
  assert(response.headers.get("content-type")!.startsWith("text/plain; version=0.0.4"));
  return parsePrometheusText(await response.text());
}

interface Totals {
  rows: number;
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
  reasoning: number;
  cost: number;
}

function usageTotals(dbPath: string, where = "1=1"): Totals {
  const db = new DatabaseSync(dbPath, { readOnly: true });
  try {
    return db.prepare(
      `SELECT COUNT(*) AS rows, COALESCE(SUM(input_tokens),0) AS input,
        COALESCE(SUM(cache_read_tokens),0) AS cacheRead, COALESCE(SUM(cache_creation_tokens),0) AS cacheWrite,
        COALESCE(SUM(output_tokens),0) AS output, COALESCE(SUM(reasoning_tokens),0) AS reasoning,
        COALESCE(SUM(cost),0) AS cost FROM usage WHERE ${where}`,
    ).get() as unknown as Totals;
  } finally {
    db.close();
  }
}

Deno.test("/metrics counters match the usage rows after openai and anthropic SDK traffic, streams included", async () => {
  await using e = await setup();
  const openai = new OpenAI({ baseURL: `${e.url}/v1`, apiKey: "anything", maxRetries: 0 });
  const anthropic = new Anthropic({ baseURL: e.url, apiKey: "anything", maxRetries: 0 });
  for (const model of ["up_chat/text", "up_messages/text"]) {
    await openai.chat.completions.create({ model, messages: [{ role: "user", content: "hi" }] });
    const stream = await openai.chat.completions.create({
      model,
      messages: [{ role: "user", content: "hi" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    for await (const _ of stream) { /* read it all */ }
  }
  await anthropic.messages.create({
    model: "up_generate/text",
    max_tokens: 50,
    messages: [{ role: "user", content: "hi" }],
  });
  const text = await anthropic.messages.stream({
    model: "up_responses/text",
    max_tokens: 50,
    messages: [{ role: "user", content: "hi" }],
  }).finalText();
  assertEquals(text, "Hello from the gateway.");
  const refused = await openai.chat.completions.create({
    model: "up_chat/refused",
    messages: [{ role: "user", content: "hi" }],
  }).then(() => null, (error) => error as { status?: number });
  assertEquals(refused?.status, 400);

  await e.gw.runtime.recorder.settled();
  e.gw.runtime.writer.flush();
  const m = await metricsOf(e);
  const rows = usageTotals(e.gw.config.paths.dbPath);
  assertEquals(rows.rows, 7);
  assertEquals(sumOf(m, "gateway_upstream_attempts_total"), rows.rows);
  assertEquals(
    sumOf(m, "gateway_upstream_attempts_total", { status: "400" }),
    usageTotals(e.gw.config.paths.dbPath, "status = 400").rows,
  );
  const kinds: [string, keyof Totals][] = [
    ["input", "input"],
    ["cache_read", "cacheRead"],
    ["cache_write", "cacheWrite"],
    ["output", "output"],
    ["reasoning", "reasoning"],
  ];
  for (const [kind, column] of kinds) {
    assertEquals(sumOf(m, "gateway_tokens_total", { kind }), rows[column], `tokens of kind ${kind}`);
  }
  assert(rows.cost > 0, "the priced model has a cost");
  assert(Math.abs(sumOf(m, "gateway_cost_usd_total") - rows.cost) < 1e-9, "cost matches the usage rows");
  const chatRows = usageTotals(e.gw.config.paths.dbPath, "provider_id = 'up_chat-1'");
  assertEquals(sumOf(m, "gateway_tokens_total", { provider: "up_chat-1", kind: "output" }), chatRows.output);

  // Client requests: 7, by surface and status; every series carries the worker and instance labels.
  assertEquals(sumOf(m, "gateway_requests_total"), 7);
  assertEquals(sumOf(m, "gateway_requests_total", { surface: "messages", status: "200" }), 2);
  assertEquals(sumOf(m, "gateway_requests_total", { status: "400" }), 1);
  for (const sample of m.get("gateway_requests_total")!.samples) {
    assertEquals(sample.labels.worker, "0");
    assertEquals(sample.labels.gateway_instance, "test-node");
  }
  assertEquals(sumOf(m, "gateway_requests_in_flight"), 0);
  assert(sumOf(m, "gateway_stream_chunks_total") >= 3, "three streams sent chunks");
  assertEquals(
    sumOf(m, "gen_ai_server_request_duration_seconds_count", {}, "gen_ai_server_request_duration_seconds"),
    7,
  );
  assertEquals(sumOf(m, "gateway_overhead_seconds_count", {}, "gateway_overhead_seconds"), 7);
  assertEquals(
    sumOf(m, "gateway_time_to_first_byte_seconds_count", {}, "gateway_time_to_first_byte_seconds"),
    6,
  );
  assertEquals(
    sumOf(m, "gen_ai_client_token_usage_sum", { gen_ai_token_type: "output" }, "gen_ai_client_token_usage"),
    rows.output,
  );
  assertEquals(
    sumOf(
      m,
      "gen_ai_client_operation_duration_seconds_count",
      {},
      "gen_ai_client_operation_duration_seconds",
    ),
    7,
  );
  assertEquals(sumOf(m, "gateway_build_info"), 1);
  for (const name of ["gateway_cooldowns_active", "gateway_budget_spend_usd", "gateway_fallbacks_total"]) {
    assert(m.has(name), `${name} is declared`);
  }
});

Deno.test("/metrics counts fallbacks, active cooldowns and budget spend", async () => {
  const failing = await startE2E({ text: textAnswer("ok", USAGE), down: { status: 503 } }, EXTRA_YAML);
  await using e = failing;
  // A combo whose first member fails over to the second.
  e.gw.management.combos.create({ name: "pair", models: ["up_chat/down", "up_messages/text"] });
  e.gw.management.budgets.set(null, 100);
  const openai = new OpenAI({ baseURL: `${e.url}/v1`, apiKey: "anything", maxRetries: 0 });
  await openai.chat.completions.create({ model: "pair", messages: [{ role: "user", content: "hi" }] });
  await e.gw.runtime.recorder.settled();
  const m = await metricsOf(e);
  assertEquals(sumOf(m, "gateway_fallbacks_total", { model: "pair" }), 1);
  assertEquals(sumOf(m, "gateway_cooldowns_active", { provider: "up_chat-1" }), 1);
  assertEquals(sumOf(m, "gateway_budget_limit_usd", { scope: "global" }), 100);
  assert(sumOf(m, "gateway_budget_spend_usd", { scope: "global" }) >= 0);
});

Deno.test("/metrics access: anonymous and wrong tokens are refused; the token, a dashboard key and a session are accepted", async () => {
  await using e = await setup();
  assertEquals((await scrape(e, {})).status, 401);
  const wrong = await scrape(e, { authorization: "Bearer metrics-token-0123456789abcdeX" });
  assertEquals(wrong.status, 401);
  assertEquals((await wrong.json()).detail, "Metrics need the metrics token or dashboard access");
  assertEquals((await scrape(e, { authorization: "Bearer anything-else" })).status, 401);
  const byToken = await scrape(e, { authorization: `Bearer ${METRICS_TOKEN}` });
  assertEquals(byToken.status, 200);
  await byToken.body?.cancel();
  const byKey = await scrape(e, { authorization: `Bearer ${ADMIN_KEY}` });
  assertEquals(byKey.status, 200);
  await byKey.body?.cancel();
  const login = await fetch(`${e.url}/dashboard/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: e.url },
    body: `api_key=${ADMIN_KEY}`,
  });
  assertEquals(login.status, 303);
  const cookie = login.headers.get("set-cookie")!.split(";")[0];
  const bySession = await scrape(e, { cookie });
  assertEquals(bySession.status, 200);
  parsePrometheusText(await bySession.text());
});

Deno.test("/metrics is 404 unless enabled, and its token comes from GATEWAY_METRICS_TOKEN too", async () => {
  const gw = await startTestGateway(chatProvidersYaml([{ id: "a", prefix: "p", url: "http://127.0.0.1:9" }]));
  try {
    const response = await fetch(`${gw.url}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    assertEquals(response.status, 404);
    await response.body?.cancel();
  } finally {
    await gw.stop();
  }
  const previous = Deno.env.get("GATEWAY_METRICS_TOKEN");
  Deno.env.set("GATEWAY_METRICS_TOKEN", "token-from-the-environment-42");
  const withEnv = await startTestGateway("metrics:\n  enabled: true\n");
  try {
    const ok = await fetch(`${withEnv.url}/metrics`, {
      headers: { authorization: "Bearer token-from-the-environment-42" },
    });
    assertEquals(ok.status, 200);
    await ok.body?.cancel();
  } finally {
    await withEnv.stop();
    if (previous === undefined) Deno.env.delete("GATEWAY_METRICS_TOKEN");
    else Deno.env.set("GATEWAY_METRICS_TOKEN", previous);
  }
});

Deno.test("x-gateway-overhead-ms rides on model answers, streams, errors and every other response", async () => {
  await using e = await setup();
  const overhead = (r: Response) => {
    const value = r.headers.get("x-gateway-overhead-ms");
    assert(value !== null && /^\d+\.\d{3}$/.test(value), `x-gateway-overhead-ms on ${r.url}: ${value}`);
    return Number(value);
  };
  const chat = (body: Record<string, unknown>) =>
    fetch(`${e.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: "hi" }], ...body }),
    });
  for (
    const response of [
      await chat({ model: "up_chat/text" }),
      await chat({ model: "up_messages/text", stream: true }),
      await chat({ model: "up_chat/refused" }),
      await chat({ model: "nobody/none" }),
      await fetch(`${e.url}/v1/health`),
      await fetch(`${e.url}/v1/models`),
      await fetch(`${e.url}/api/version`),
      await fetch(`${e.url}/no/such/path`),
      await fetch(`${e.url}/dashboard`, { redirect: "manual" }),
      await fetch(`${e.url}/metrics`),
    ]
  ) {
    assert(overhead(response) >= 0);
    await response.body?.cancel();
  }
});
