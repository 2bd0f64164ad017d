/** Test Connection and Fetch Models on the Add-provider form's unsaved values. */
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { body, setupDashboard } from "./dashboard_helpers.ts";

/** A loopback chat-compatible upstream that wants `key` and records the paths it is asked. */
function upstream(key: string) {
  const seen: string[] = [];
  const instance = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const path = new URL(request.url).pathname;
    seen.push(path);
    if (request.headers.get("authorization") !== `Bearer ${key}`) {
      return Response.json({ error: { message: "bad key", type: "invalid_request_error" } }, { status: 401 });
    }
    if (path === "/v1/models") return Response.json({ data: [{ id: "draft-a" }, { id: "draft-b" }] });
    const sent = await request.json();
    return Response.json({
      id: "c1",
      object: "chat.completion",
      model: sent.model,
      choices: [{ index: 0, message: { role: "assistant", content: "p" }, finish_reason: "length" }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    });
  });
  return {
    url: `http://127.0.0.1:${instance.addr.port}/v1`,
    seen,
    [Symbol.asyncDispose]: () => instance.shutdown(),
  };
}

type Probe = { ok: boolean; status: number; message: string; model: string };

Deno.test("test-draft: with no model it lists the models of the unsaved provider, and stores nothing", async () => {
  await using t = await setupDashboard();
  await using up = upstream("sk-draft");
  const probed = await t.json(
    "/dashboard/api/providers/test-draft",
    body("POST", { api_type: "chat_compat", base_url: up.url, api_key: "sk-draft" }),
  );
  assertEquals(probed.status, 200);
  const result = probed.body as unknown as Probe;
  assertEquals(result.ok, true);
  assertStringIncludes(result.message, "listed 2 models");
  assertEquals(up.seen, ["/v1/models"]);
  const state = await t.json("/dashboard/api/v2/state/providers");
  const ids = (state.body.data as { providers: { id: string }[] }).providers.map((p) => p.id);
  assertEquals(ids, ["acct-a"], "the draft was not saved");
});

Deno.test("test-draft: with a model it sends the one-token request; a wrong key reports the 401", async () => {
  await using t = await setupDashboard();
  await using up = upstream("sk-draft");
  const good = await t.json(
    "/dashboard/api/providers/test-draft",
    body("POST", { api_type: "chat_compat", base_url: up.url, api_key: "sk-draft", model: "draft-a" }),
  );
  assertEquals((good.body as unknown as Probe).ok, true);
  assertEquals((good.body as unknown as Probe).model, "draft-a");
  assertEquals(up.seen, ["/v1/chat/completions"]);
  const bad = await t.json(
    "/dashboard/api/providers/test-draft",
    body("POST", { api_type: "chat_compat", base_url: up.url, api_key: "sk-wrong" }),
  );
  const failed = bad.body as unknown as Probe;
  assertEquals(bad.status, 200);
  assertEquals([failed.ok, failed.status], [false, 401]);
  assertStringIncludes(failed.message, "bad key");
});

Deno.test("test-draft: bad input is a clear 400 naming the field, never a 500", async () => {
  await using t = await setupDashboard();
  const cases: [unknown, string][] = [
    [{ api_type: "chat_compat", base_url: "ftp://x" }, "base_url"],
    [{ api_type: "nope", base_url: "http://127.0.0.1:1/v1" }, "api_type"],
    [{ base_url: "http://127.0.0.1:1/v1" }, "api_type"],
    [{ api_type: "chat_compat" }, "base_url"],
    [{ api_type: "chat_compat", base_url: "http://127.0.0.1:1/v1", model: 7 }, "model"],
    [{ api_type: "chat_compat", base_url: "http://127.0.0.1:1/v1", model: "  " }, "model"],
    [{ api_type: "responses_oauth", base_url: "", api_key: "x" }, "base_url"],
    [{ api_type: "responses_oauth", base_url: "https://chatgpt.example/v1" }, "api_key"],
    [[1, 2], ""],
  ];
  for (const [input, field] of cases) {
    const answer = await t.json("/dashboard/api/providers/test-draft", body("POST", input));
    assertEquals(answer.status, 400, JSON.stringify(input));
    assertStringIncludes(JSON.stringify(answer.body), field, JSON.stringify(input));
  }
  const garbage = await t.api("/dashboard/api/providers/test-draft", { method: "POST", body: "{not json" });
  assertEquals(garbage.status, 400);
  await garbage.body?.cancel();
});

Deno.test("test-draft: an unreachable URL is a failed probe with the reason, not an error", async () => {
  await using t = await setupDashboard();
  const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (closed.addr as Deno.NetAddr).port;
  closed.close();
  const answer = await t.json(
    "/dashboard/api/providers/test-draft",
    body("POST", { api_type: "chat_compat", base_url: `http://127.0.0.1:${port}/v1`, model: "m" }),
  );
  assertEquals(answer.status, 200);
  const result = answer.body as unknown as Probe;
  assertEquals([result.ok, result.status], [false, 0]);
  assert(result.message.length > 0);
});

Deno.test("test on a saved provider with no models lists its models instead of refusing", async () => {
  await using t = await setupDashboard();
  await using up = upstream("sk-saved");
  const created = await t.json(
    "/dashboard/api/providers",
    body("POST", {
      id: "bare",
      prefix: "bare",
      api_type: "chat_compat",
      base_url: up.url,
      api_key: "sk-saved",
    }),
  );
  assertEquals(created.status, 201);
  const probed = await t.json("/dashboard/api/providers/bare/test", body("POST", {}));
  assertEquals((probed.body as unknown as Probe).ok, true);
  assertEquals(up.seen, ["/v1/models"]);
});

Deno.test("the providers section offers vendor presets; subscription kinds sign in", async () => {
  await using t = await setupDashboard();
  const state = await t.json("/dashboard/api/v2/state/providers");
  const section = state.body.data as {
    vendor_presets: { id: string; api_type: string; base_url: string; auth: string }[];
    api_types: { api_type: string; signs_in: boolean }[];
  };
  const groq = section.vendor_presets.find((p) => p.id === "groq");
  assertEquals(groq, { ...groq!, api_type: "chat_compat", base_url: "https://api.groq.com/openai/v1" });
  const signsIn = new Set(section.api_types.filter((t) => t.signs_in).map((t) => t.api_type));
  for (const preset of section.vendor_presets) {
    assertEquals(preset.auth === "oauth", signsIn.has(preset.api_type), preset.id);
  }
});
