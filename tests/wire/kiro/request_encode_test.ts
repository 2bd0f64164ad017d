import { assertEquals } from "../../helpers/assert.ts";
import { encodeKiroRequest } from "../../../src/wire/kiro/mod.ts";
import type { NeutralRequest } from "../../../src/model/mod.ts";
import { PNG_1X1, scenarioRequest, SCENARIOS } from "../../fixtures/neutral_scenarios.ts";

const GOLDEN = new URL("../../fixtures/golden/upstream/kiro_requests.json", import.meta.url);
const UPDATE = Deno.env.get("UPDATE_GOLDEN") === "1";

Deno.test("encodeKiroRequest() matches the golden conversation-state body of every matrix scenario", async () => {
  const bodies = Object.fromEntries(
    SCENARIOS.map((name) => [name, encodeKiroRequest(scenarioRequest(name, true), "claude-sonnet-4.5").body]),
  );
  if (UPDATE) await Deno.writeTextFile(GOLDEN, JSON.stringify(bodies, null, 2) + "\n");
  assertEquals(bodies, JSON.parse(await Deno.readTextFile(GOLDEN)));
});

/** The body's shape as far as these tests read it. */
interface KiroState {
  currentMessage: { userInputMessage: Record<string, unknown> };
  history?: unknown[];
}

const base: NeutralRequest = {
  model: "k/claude",
  system: [{ kind: "text", text: "Be brief." }],
  messages: [],
  tools: [],
  params: {},
  stream: true,
  source: "chat_completions",
};

Deno.test("encodeKiroRequest() puts the system text and tools on the current message, results of the last turn beside them", () => {
  const { body } = encodeKiroRequest({
    ...base,
    tools: [{ name: "look", description: "", parameters: { type: "object", properties: {} } }],
    messages: [
      { role: "user", parts: [{ kind: "text", text: "find it" }] },
      { role: "assistant", parts: [{ kind: "toolCall", id: "t1", name: "look", arguments: '{"q":"x"}' }] },
      {
        role: "tool",
        parts: [{ kind: "toolResult", callId: "t1", content: [{ kind: "text", text: "found" }] }],
      },
    ],
  }, "claude-sonnet-4.5");
  const state = body.conversationState as KiroState;
  assertEquals(state.currentMessage.userInputMessage, {
    content: "Be brief.",
    modelId: "claude-sonnet-4.5",
    origin: "AI_EDITOR",
    userInputMessageContext: {
      tools: [{
        toolSpecification: {
          name: "look",
          description: "Tool: look",
          inputSchema: { json: { type: "object", properties: {}, required: [] } },
        },
      }],
      toolResults: [{ toolUseId: "t1", status: "success", content: [{ text: "found" }] }],
    },
  });
  assertEquals(state.history, [
    { userInputMessage: { content: "find it", modelId: "claude-sonnet-4.5", origin: "AI_EDITOR" } },
    {
      assistantResponseMessage: {
        content: "...",
        toolUses: [{ toolUseId: "t1", name: "look", input: { q: "x" } }],
      },
    },
  ]);
  assertEquals(body.inferenceConfig, { maxTokens: 32000 });
});

Deno.test("encodeKiroRequest() merges consecutive user turns and sends inline images with their format", () => {
  const { body, warnings } = encodeKiroRequest({
    ...base,
    system: [],
    params: { maxTokens: 100, temperature: 0.2, topP: 0.9, stop: ["x"] },
    messages: [
      { role: "user", parts: [{ kind: "text", text: "one" }] },
      {
        role: "user",
        parts: [
          { kind: "text", text: "two" },
          { kind: "image", source: { type: "base64", mediaType: "image/png", data: PNG_1X1 } },
          { kind: "image", source: { type: "url", url: "https://example.com/a.png" } },
        ],
      },
    ],
  }, "m");
  const state = body.conversationState as KiroState;
  assertEquals(state.history, undefined);
  assertEquals(state.currentMessage.userInputMessage.content, "one\n\ntwo");
  assertEquals(state.currentMessage.userInputMessage.images, [{ format: "png", source: { bytes: PNG_1X1 } }]);
  assertEquals(body.inferenceConfig, { maxTokens: 100, temperature: 0.2, topP: 0.9 });
  assertEquals(warnings.map((w) => [w.code, w.message]), [
    ["dropped_part:image", "dropped an image: the cloud assistant takes only inline images in user turns"],
    ["dropped_field:stop", "dropped stop sequences: the cloud assistant has no such setting"],
  ]);
});

Deno.test("encodeKiroRequest() keeps a trailing assistant turn in history and sends 'continue' as the current message", () => {
  const { body } = encodeKiroRequest({
    ...base,
    system: [],
    messages: [
      { role: "assistant", parts: [{ kind: "text", text: "Hello" }] },
    ],
  }, "m");
  const state = body.conversationState as KiroState;
  assertEquals(state.history, [
    { userInputMessage: { content: "continue", modelId: "m", origin: "AI_EDITOR" } },
    { assistantResponseMessage: { content: "Hello" } },
  ]);
  assertEquals(state.currentMessage.userInputMessage.content, "continue");
});
