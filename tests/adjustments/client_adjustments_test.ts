import { assert, assertEquals } from "../helpers/assert.ts";
import type { Message, ToolDefinition } from "../../src/model/mod.ts";
import {
  applyAdjustments,
  betasFor,
  dedupeTools,
  detectClient,
  injectReasoningContent,
  normalizeClaudeCode,
  REASONING_PLACEHOLDER,
} from "../../src/adjustments/mod.ts";
import { request, target } from "./fixtures.ts";

const tool = (name: string, description = name): ToolDefinition => ({
  name,
  description,
  parameters: { type: "object" },
});

Deno.test("dedupeTools() keeps the first definition of each tool name for Claude Code", () => {
  const input = request([], { tools: [tool("Read", "first"), tool("Bash"), tool("Read", "second")] });
  const out = dedupeTools(input, target("claude-sonnet-4", "messages", { clientKind: "claude_code" }));
  assertEquals(out.tools.map((t) => [t.name, t.description]), [["Read", "first"], ["Bash", "Bash"]]);
});

Deno.test("dedupeTools() leaves other clients' tools alone", () => {
  const input = request([], { tools: [tool("Read"), tool("Read")] });
  assert(dedupeTools(input, target("claude-sonnet-4", "messages", { clientKind: "codex" })) === input);
});

const history: Message[] = [
  { role: "user", parts: [{ kind: "text", text: "go" }] },
  {
    role: "assistant",
    parts: [
      { kind: "reasoning", text: "unsigned" },
      { kind: "reasoning", text: "from openai", signature: "enc", family: "openai" },
      { kind: "reasoning", text: "signed", signature: "sig", family: "anthropic" },
      { kind: "toolCall", id: "t1", name: "Read", arguments: "{}" },
    ],
  },
];

Deno.test("normalizeClaudeCode() drops unsigned and foreign thinking, merges repeated system blocks and moves betas out", () => {
  const input = request(history, {
    source: "messages",
    system: [{ kind: "text", text: "rules" }, { kind: "text", text: "rules" }, {
      kind: "text",
      text: "more",
    }],
    extra: { format: "messages", fields: { betas: ["context-1m-2025-08-07"], metadata: { user_id: "u" } } },
  });
  const out = normalizeClaudeCode(
    input,
    target("claude-sonnet-4", "messages", { clientKind: "claude_code" }),
  );
  assertEquals(out.system.map((p) => p.text), ["rules", "more"]);
  assertEquals(out.messages[1].parts.map((p) => p.kind === "reasoning" ? p.text : p.kind), [
    "signed",
    "toolCall",
  ]);
  assertEquals(out.extra, { format: "messages", fields: { metadata: { user_id: "u" } } });
});

Deno.test("normalizeClaudeCode() does nothing for other clients or non-messages upstreams", () => {
  const input = request(history, { source: "messages" });
  assert(normalizeClaudeCode(input, target("claude-sonnet-4", "messages")) === input);
  assert(normalizeClaudeCode(input, target("gpt-5", "responses", { clientKind: "claude_code" })) === input);
});

Deno.test("betasFor() reads body betas given as a list or a comma-separated string", () => {
  assertEquals(betasFor(request([], { extra: { format: "messages", fields: { betas: "a, b,a" } } })), [
    "a",
    "b",
  ]);
  assertEquals(betasFor(request([], { extra: { format: "messages", fields: { betas: ["x"] } } })), ["x"]);
  assertEquals(betasFor(request([], { extra: { format: "responses", fields: { betas: ["x"] } } })), []);
});

Deno.test("injectReasoningContent() gives tool-call turns a reasoning part for DeepSeek reasoner and Kimi", () => {
  const turns: Message[] = [
    { role: "assistant", parts: [{ kind: "toolCall", id: "t", name: "f", arguments: "{}" }] },
    { role: "assistant", parts: [{ kind: "text", text: "plain answer" }] },
  ];
  for (const model of ["deepseek-reasoner", "kimi-k2-0905-preview"]) {
    const out = injectReasoningContent(request(turns), target(model, "chat_completions"));
    assertEquals(out.messages[0].parts[0], { kind: "reasoning", text: REASONING_PLACEHOLDER }, model);
    assert(out.messages[1] === turns[1], "turns without tool calls are untouched");
  }
});

Deno.test("injectReasoningContent() leaves turns with reasoning, other models and other formats alone", () => {
  const withReasoning: Message[] = [{
    role: "assistant",
    parts: [{ kind: "reasoning", text: "because" }, {
      kind: "toolCall",
      id: "t",
      name: "f",
      arguments: "{}",
    }],
  }];
  const input = request(withReasoning);
  assert(injectReasoningContent(input, target("deepseek-reasoner", "chat_completions")) === input);
  const bare = request([{
    role: "assistant",
    parts: [{ kind: "toolCall", id: "t", name: "f", arguments: "{}" }],
  }]);
  assert(injectReasoningContent(bare, target("gpt-4o", "chat_completions")) === bare);
  assert(injectReasoningContent(bare, target("deepseek-reasoner", "messages")) === bare);
});

Deno.test("detectClient() recognises Claude Code, Codex and Gemini CLI", () => {
  assertEquals(
    detectClient(new Headers({ "user-agent": "claude-cli/1.0.80 (external, cli)" })),
    "claude_code",
  );
  assertEquals(
    detectClient(new Headers({ "Anthropic-Beta": "claude-code-20250219,oauth", "user-agent": "node" })),
    "claude_code",
  );
  assertEquals(detectClient(new Headers({ "X-App": "cli" })), "claude_code");
  assertEquals(detectClient(new Headers({ "user-agent": "codex_cli_rs/0.30.0" })), "codex");
  assertEquals(detectClient(new Headers({ originator: "codex_vscode", "user-agent": "node" })), "codex");
  assertEquals(detectClient(new Headers({ "user-agent": "GeminiCLI/0.5.0 (linux; x64)" })), "gemini_cli");
  assertEquals(detectClient(new Headers({ "user-agent": "OpenAI/Python 1.99" })), "other");
});

Deno.test("applyAdjustments() composes the adjustments, names those that changed something and returns betas as a header", () => {
  const input = request(history, {
    source: "messages",
    tools: [tool("Read"), tool("Read")],
    reasoning: { budgetTokens: 500 },
    params: { maxTokens: 4096 },
    extra: { format: "messages", fields: { betas: ["fine-grained-tool-streaming-2025-05-14"] } },
  });
  const out = applyAdjustments(input, target("claude-sonnet-4", "messages", { clientKind: "claude_code" }));
  assertEquals(out.applied, ["thinking_intent", "claude_code", "dedupe_tools"]);
  assertEquals(out.headers, { "anthropic-beta": "fine-grained-tool-streaming-2025-05-14" });
  assertEquals(out.request.reasoning, { budgetTokens: 1024 });
  assertEquals(out.request.tools.length, 1);
});

Deno.test("applyAdjustments() returns the same request and no headers when nothing applies", () => {
  const input = request([{ role: "user", parts: [{ kind: "text", text: "hi" }] }]);
  const out = applyAdjustments(input, target("gpt-4o", "chat_completions"));
  assert(out.request === input);
  assertEquals([out.applied, out.headers, out.warnings], [[], {}, []]);
});
