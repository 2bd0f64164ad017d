import { assert, assertEquals } from "../helpers/assert.ts";
import { toolCards } from "../../src/dashboard/state/tool_cards.ts";

const ORIGIN = "https://gw.example.test:8443";

function textOf(card: ReturnType<typeof toolCards>[number]): string {
  return [...card.env.map((e) => `${e.name}=${e.value}`), card.snippet?.content ?? ""].join("\n");
}

Deno.test("toolCards() puts the key placeholder in every card when keys are required, and parses as each file's format", () => {
  const cards = toolCards({ origin: ORIGIN, requireKey: true, model: "p/m1" });
  for (const card of cards) {
    const text = textOf(card);
    assert(text.includes("sk-gateway-…") || text.includes("GATEWAY_API_KEY"), `${card.id} names no key`);
    if (card.snippet?.language === "json") JSON.parse(card.snippet.content);
  }
  const byId = new Map(cards.map((c) => [c.id, c]));
  assert(textOf(byId.get("ollama-sdk")!).includes('Authorization: "Bearer sk-gateway-…"'));
  assert(textOf(byId.get("aider")!).includes("openai-api-key: sk-gateway-…"));
});

Deno.test("toolCards() gives Gemini CLI API-key auth and workspace trust, and Qwen Code all three modes", () => {
  const cards = new Map(
    toolCards({ origin: ORIGIN, requireKey: false, model: "p/m1" }).map((c) => [c.id, c]),
  );
  const gemini = cards.get("gemini-cli")!;
  assertEquals(JSON.parse(gemini.snippet!.content), {
    security: { auth: { selectedType: "gemini-api-key" } },
  });
  assert(gemini.env.some((e) => e.name === "GEMINI_CLI_TRUST_WORKSPACE" && e.value === "true"));
  const qwen = JSON.parse(cards.get("qwen-code")!.snippet!.content);
  assertEquals(Object.keys(qwen.modelProviders).sort(), ["anthropic", "gemini", "openai"]);
  assertEquals(qwen.modelProviders.openai[0].baseUrl, `${ORIGIN}/v1`);
  assertEquals(qwen.modelProviders.anthropic[0].baseUrl, ORIGIN);
  assertEquals(qwen.modelProviders.gemini[0].baseUrl, ORIGIN);
  assertEquals(qwen.security.auth.selectedType, "openai");
});

Deno.test("toolCards() tells each Gemini client which model path form it sends for a slashed gateway id", () => {
  const cards = new Map(
    toolCards({ origin: ORIGIN, requireKey: false, model: "p/m1" }).map((c) => [c.id, c]),
  );
  const genai = cards.get("genai-sdk")!.notes.join("\n");
  assert(genai.includes("models/p/m1"), genai);
  assert(genai.includes("@ai-sdk/google") && genai.includes("v1beta/p/m1"), genai);
  assert(cards.get("gemini-cli")!.notes.some((n) => n.includes("models/p/m1")));
});
