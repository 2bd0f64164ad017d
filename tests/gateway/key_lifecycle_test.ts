/**
 * Key lifecycle and groups on the request path, through a running gateway with an injected clock: an
 * expired key is refused like an unknown one, a rotated key's old secret works for its grace period, the
 * last use reaches the database in a batch, a group's allowlist and limits bound its keys (which may only
 * narrow them), and the global default limits apply to keys without their own.
 */
import { chatCompletion } from "../helpers/chat_fixtures.ts";
import { assertEquals } from "../helpers/assert.ts";
import { chatProvidersYaml, startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { type MockUpstream, startMockUpstream } from "../helpers/mock_upstream.ts";
import { waitFor } from "../helpers/wait.ts";

const COMPLETION = chatCompletion("hi", { prompt_tokens: 5, completion_tokens: 2 });
const START = Date.UTC(2026, 5, 1, 12, 0);

interface Env extends AsyncDisposable {
  readonly gw: TestGateway;
  readonly upstream: MockUpstream;
  clock: number;
  ask(key: string, model?: string): Promise<number>;
}

async function env(yaml = ""): Promise<Env> {
  const upstream = await startMockUpstream();
  upstream.script({ json: COMPLETION });
  const state = { clock: START };
  const gw = await startTestGateway(
    chatProvidersYaml([{ id: "up", prefix: "up", url: upstream.url, models: ["m1", "m2"] }]) +
      "server:\n  require_api_key: true\n" + yaml,
    { now: () => state.clock },
  );
  return {
    gw,
    upstream,
    get clock() {
      return state.clock;
    },
    set clock(value: number) {
      state.clock = value;
    },
    async ask(key, model = "up/m1") {
      const response = await fetch(`${gw.url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ model, messages: [{ role: "user", content: "hi" }] }),
      });
      await response.body?.cancel();
      return response.status;
    },
    async [Symbol.asyncDispose]() {
      await gw.stop();
      await upstream.close();
    },
  };
}

Deno.test("an expired key is refused with the spec's 401; a rotated key's old secret works until its grace ends", async () => {
  await using e = await env();
  const keys = e.gw.management.keys;
  const expiring = keys.create({
    name: "temp",
    canLogin: false,
    allowedModels: [],
    expiresAt: START + 60_000,
  });
  assertEquals(await e.ask(expiring.plaintext), 200);
  e.clock = START + 60_000;
  assertEquals(await e.ask(expiring.plaintext), 401);

  const service = keys.create({ name: "svc", canLogin: false, allowedModels: [] });
  const rotated = keys.rotate(service.record.id, 3_600_000);
  assertEquals(rotated.record.id, service.record.id);
  assertEquals(await e.ask(rotated.plaintext), 200);
  assertEquals(await e.ask(service.plaintext), 200);
  e.clock = START + 60_000 + 3_600_000;
  assertEquals(await e.ask(service.plaintext), 401);
  assertEquals(await e.ask(rotated.plaintext), 200);
});

Deno.test("a key's last use is remembered in memory and written to the database with the next batch", async () => {
  await using e = await env();
  const key = e.gw.management.keys.create({ name: "used", canLogin: false, allowedModels: [] });
  assertEquals(e.gw.management.keys.find("used")!.lastUsedAt, null);
  e.clock = START + 5_000;
  assertEquals(await e.ask(key.plaintext), 200);
  await waitFor(() => e.gw.management.keys.find("used")!.lastUsedAt === START + 5_000, {
    what: "the last use flushed",
  });
});

Deno.test("a group's allowlist and limits bound its keys; a key may only narrow them", async () => {
  await using e = await env();
  const group = e.gw.management.groups.create({ name: "team", allowedModels: ["up/m1"], limits: { rpm: 2 } });
  const wide = e.gw.management.keys.create({
    name: "wide",
    canLogin: false,
    allowedModels: ["up/*"],
    groupId: group.id,
    limits: { rpm: 100 },
  });
  // The key allows up/*, its group only up/m1: the intersection applies.
  assertEquals(await e.ask(wide.plaintext, "up/m2"), 403);
  assertEquals(await e.ask(wide.plaintext, "up/m1"), 200);
  // RPM 100 on the key, 2 on its group: the group's is a ceiling (the 403 above counted one request).
  assertEquals(await e.ask(wide.plaintext, "up/m1"), 429);
  const models = await fetch(`${e.gw.url}/v1/models`, {
    headers: { authorization: `Bearer ${wide.plaintext}` },
  });
  assertEquals((await models.json()).data.map((m: { id: string }) => m.id), ["up/m1"]);
  // Out of the group, the key's own list and limit apply.
  e.gw.management.keys.update(wide.record.id, { groupId: null });
  assertEquals(await e.ask(wide.plaintext, "up/m2"), 200);
});

Deno.test("the default limits (settings) apply to keys without their own, and to static keys", async () => {
  await using e = await env(
    "api_keys:\n  - key: sk-static-test-key-0123456789\n    client_key_label: yaml\n",
  );
  e.gw.management.settings.apply({ rate_limit_default_rpm: "1" });
  const own = e.gw.management.keys.create({
    name: "own",
    canLogin: false,
    allowedModels: [],
    limits: { rpm: 3 },
  });
  const plain = e.gw.management.keys.create({ name: "plain", canLogin: false, allowedModels: [] });
  assertEquals(await e.ask(plain.plaintext), 200);
  assertEquals(await e.ask(plain.plaintext), 429);
  assertEquals(await e.ask("sk-static-test-key-0123456789"), 200);
  assertEquals(await e.ask("sk-static-test-key-0123456789"), 429);
  for (let i = 0; i < 3; i++) assertEquals(await e.ask(own.plaintext), 200);
  assertEquals(await e.ask(own.plaintext), 429);
});

Deno.test("tokens per minute are admitted on an estimate and settled with the usage the upstream reports", async () => {
  await using e = await env();
  const key = e.gw.management.keys.create({
    name: "tpm",
    canLogin: false,
    allowedModels: [],
    limits: { tpm: 20 },
  });
  const send = () =>
    fetch(`${e.gw.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key.plaintext}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "up/m1", messages: [{ role: "user", content: "hi" }] }),
    });
  // The estimate of this request is 8 tokens (3 priming + 4 per message + 1 for "hi"); the upstream reports
  // 7 (5 in, 2 out). The clock stands still, so nothing drains between requests.
  const first = await send();
  await first.body?.cancel();
  assertEquals(first.headers.get("x-ratelimit-remaining-tokens"), "12");
  const second = await send();
  await second.body?.cancel();
  // The first was settled at 7: 20 - 7 - 8.
  assertEquals(second.headers.get("x-ratelimit-remaining-tokens"), "5");
  const third = await send();
  assertEquals(third.status, 429);
  const body = await third.json();
  assertEquals(body.error.type, "rate_limit_error");
  // 14 used and 8 more wanted: 2 tokens must drain at 20 per minute, 6 s.
  assertEquals(third.headers.get("retry-after"), "6");
});

Deno.test("the Responses surface carries x-ratelimit-*; generate-content has no such headers but gets its own 429", async () => {
  await using e = await env();
  const key = e.gw.management.keys.create({
    name: "surfaces",
    canLogin: false,
    allowedModels: [],
    limits: { rpm: 2 },
  });
  const responses = await fetch(`${e.gw.url}/v1/responses`, {
    method: "POST",
    headers: { authorization: `Bearer ${key.plaintext}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "up/m1", input: "hi" }),
  });
  await responses.body?.cancel();
  assertEquals(responses.status, 200);
  assertEquals(responses.headers.get("x-ratelimit-limit-requests"), "2");
  assertEquals(responses.headers.get("x-ratelimit-remaining-requests"), "1");
  const generate = () =>
    fetch(`${e.gw.url}/v1beta/models/up/m1:generateContent`, {
      method: "POST",
      headers: { "x-goog-api-key": key.plaintext, "content-type": "application/json" },
      body: JSON.stringify({ contents: [{ role: "user", parts: [{ text: "hi" }] }] }),
    });
  const allowed = await generate();
  await allowed.body?.cancel();
  assertEquals(allowed.status, 200);
  assertEquals(allowed.headers.get("x-ratelimit-limit-requests"), null);
  const refused = await generate();
  assertEquals(refused.status, 429);
  assertEquals((await refused.json()).error.status, "RESOURCE_EXHAUSTED");
  // One request refills in 30 s at 2 per minute.
  assertEquals(refused.headers.get("retry-after"), "30");
});
