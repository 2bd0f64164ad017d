/**
 * Declared model kinds through the providers API: a kind set on create or update changes what `/v1/models`
 * says and which endpoints may use the model at once; `{}` clears it; a bad kind names the field. A rerank
 * price per search unit set through the pricing API is kept and shown.
 */
import { parseConfig, resolveHomePaths } from "../../src/config/mod.ts";
import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { body, setupDashboard } from "./dashboard_helpers.ts";

type Json = Record<string, unknown>;

async function kindOf(url: string, id: string): Promise<string | undefined> {
  const models = await (await fetch(`${url}/v1/models`)).json() as { data: { id: string; kind: string }[] };
  return models.data.find((m) => m.id === id)?.kind;
}

Deno.test("providers API: kinds declared on create and update change listings and endpoints; {} clears them", async () => {
  await using t = await setupDashboard();
  const created = await t.json(
    "/dashboard/api/providers",
    body("POST", {
      id: "ranker-1",
      prefix: "rk",
      api_type: "chat_compat",
      base_url: `${t.mock.url}/v1`,
      api_key: "k",
      models: ["bge-m3-ft", "plain"],
      kinds: { "bge-m3-ft": "rerank" },
    }),
  );
  assertEquals(created.status, 201);
  assertEquals((created.body.provider as Json).kinds, { "bge-m3-ft": "rerank" });
  assertEquals(await kindOf(t.gw.url, "rk/bge-m3-ft"), "rerank");
  assertEquals(await kindOf(t.gw.url, "rk/plain"), "chat");
  const chat = await fetch(`${t.gw.url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "rk/bge-m3-ft", messages: [{ role: "user", content: "hi" }] }),
  });
  assertEquals(chat.status, 400);
  assertStringIncludes((await chat.json()).error.message, "is a rerank model");

  const updated = await t.json(
    "/dashboard/api/providers/ranker-1",
    body("PUT", { kinds: { plain: "embedding" } }),
  );
  assertEquals((updated.body.provider as Json).kinds, { plain: "embedding" });
  assertEquals(await kindOf(t.gw.url, "rk/bge-m3-ft"), "chat");
  assertEquals(await kindOf(t.gw.url, "rk/plain"), "embedding");
  // An update that does not name kinds keeps them.
  await t.json("/dashboard/api/providers/ranker-1", body("PUT", { models: ["bge-m3-ft", "plain", "x"] }));
  assertEquals(await kindOf(t.gw.url, "rk/plain"), "embedding");
  const cleared = await t.json("/dashboard/api/providers/ranker-1", body("PUT", { kinds: {} }));
  assertEquals((cleared.body.provider as Json).kinds, {});
  assertEquals(await kindOf(t.gw.url, "rk/plain"), "chat");

  const bad = await t.json("/dashboard/api/providers/ranker-1", body("PUT", { kinds: { plain: "video" } }));
  assertEquals(bad.status, 400);
  assertStringIncludes(((bad.body.error as Json).field as string) ?? "", "kinds");
  assertStringIncludes((bad.body.error as Json).message as string, "must be one of chat, embedding, rerank");
});

Deno.test("pricing API: a per-search-unit price is stored and shown beside the token prices", async () => {
  await using t = await setupDashboard();
  const saved = await t.json(
    "/dashboard/api/pricing",
    body("POST", { model: "my-reranker", input_per_mtok: 0, output_per_mtok: 0, per_search_unit: 0.001 }),
  );
  assertEquals(saved.status, 200);
  assertEquals((saved.body.price as Json).per_search_unit, 0.001);
  assertEquals(t.gw.runtime.control.store.pricing.all()["my-reranker"].perSearchUnit, 0.001);
});

Deno.test("export: declared kinds and a per-search-unit price are in the exported YAML, which loads back with them", async () => {
  await using t = await setupDashboard();
  await t.json(
    "/dashboard/api/providers",
    body("POST", {
      id: "ranker-1",
      prefix: "rk",
      api_type: "chat_compat",
      base_url: `${t.mock.url}/v1`,
      api_key: "k",
      models: ["bge-m3-ft"],
      kinds: { "bge-m3-ft": "rerank" },
    }),
  );
  await t.json(
    "/dashboard/api/pricing",
    body("POST", { model: "bge-m3-ft", input_per_mtok: 0, output_per_mtok: 0, per_search_unit: 0.001 }),
  );
  const yaml = await (await t.api("/dashboard/api/export")).text();
  const config = parseConfig(
    yaml,
    resolveHomePaths("/tmp/export-check/config.yaml", {}),
    (name) => name.endsWith("_API_KEY") ? "secret" : undefined,
  );
  assertEquals(config.providers.find((p) => p.id === "ranker-1")?.kinds, { "bge-m3-ft": "rerank" });
  assertEquals(config.pricing["bge-m3-ft"].perSearchUnit, 0.001);
});
