import { assertEquals } from "../helpers/assert.ts";
import {
  type Account,
  buildRoutingTable,
  canonicalModel,
  filterModelList,
  isModelAllowed,
} from "../../src/routing/mod.ts";

function account(id: string, prefix: string): Account {
  return { id, prefix, apiType: "chat_compat", models: [], enabled: true };
}

const table = buildRoutingTable(
  [account("oa", "openai"), account("xm", "xiaomi"), account("or", "openrouter")],
  [{ name: "fast", models: ["openai/gpt-4o-mini", "xiaomi/mimo-v2"] }],
  { mimo: "xiaomi" },
);

Deno.test("isModelAllowed() allows everything for a null or empty allowlist", () => {
  assertEquals(isModelAllowed(null, "openai/gpt-4o", table), true);
  assertEquals(isModelAllowed([], "anything", table), true);
});

Deno.test("isModelAllowed() matches exact ids", () => {
  assertEquals(isModelAllowed(["openai/gpt-4o"], "openai/gpt-4o", table), true);
  assertEquals(isModelAllowed(["openai/gpt-4o"], "openai/gpt-4o-mini", table), false);
});

Deno.test("isModelAllowed() matches <prefix>/* against every model of that prefix only", () => {
  assertEquals(isModelAllowed(["openai/*"], "openai/gpt-4o", table), true);
  assertEquals(isModelAllowed(["openai/*"], "openrouter/openai/gpt-4o", table), false);
  assertEquals(isModelAllowed(["open/*"], "openai/gpt-4o", table), false);
  assertEquals(isModelAllowed(["openrouter/*"], "openrouter/meta-llama/llama-3", table), true);
});

Deno.test("isModelAllowed() allows a combo by its exact entry, and not through its members' scopes", () => {
  assertEquals(isModelAllowed(["fast"], "fast", table), true);
  assertEquals(isModelAllowed(["openai/*", "xiaomi/*"], "fast", table), false);
  assertEquals(isModelAllowed(["fast"], "openai/gpt-4o", table), false);
});

Deno.test("isModelAllowed() lets an alias scope and the canonical scope authorise each other", () => {
  assertEquals(isModelAllowed(["mimo/*"], "xiaomi/mimo-v2", table), true);
  assertEquals(isModelAllowed(["xiaomi/*"], "mimo/mimo-v2", table), true);
  assertEquals(isModelAllowed(["mimo/mimo-v2"], "xiaomi/mimo-v2", table), true);
  assertEquals(isModelAllowed(["xiaomi/mimo-v2"], "mimo/mimo-v2", table), true);
  assertEquals(isModelAllowed(["mimo/*"], "openai/gpt-4o", table), false);
});

Deno.test("isModelAllowed() treats an id whose first segment is no prefix as bare: exact entries only", () => {
  assertEquals(canonicalModel(table, "meta-llama/llama-3"), "meta-llama/llama-3");
  assertEquals(isModelAllowed(["meta-llama/*"], "meta-llama/llama-3", table), false);
  assertEquals(isModelAllowed(["meta-llama/llama-3"], "meta-llama/llama-3", table), true);
});

Deno.test("isModelAllowed() does not let the bare prefix word stand for its models", () => {
  assertEquals(isModelAllowed(["openai"], "openai/gpt-4o", table), false);
});

Deno.test("isModelAllowed() ignores a thinking suffix on the requested model", () => {
  assertEquals(isModelAllowed(["openai/o3"], "openai/o3(high)", table), true);
  assertEquals(isModelAllowed(["openai/*"], "openai/o3(high)", table), true);
});

Deno.test("filterModelList() keeps permitted ids in order", () => {
  const ids = ["openai/gpt-4o", "xiaomi/mimo-v2", "openrouter/x/y", "fast"];
  assertEquals(filterModelList(["xiaomi/*", "fast"], ids, table), ["xiaomi/mimo-v2", "fast"]);
  assertEquals(filterModelList(null, ids, table), ids);
});
