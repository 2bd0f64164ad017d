import { assertEquals } from "../../helpers/assert.ts";
import type { NeutralRequest } from "../../../src/model/mod.ts";
import {
  generateContentCodec as codec,
  THINKING_BUDGET_HIGH,
  THINKING_BUDGET_LOW,
  THINKING_BUDGET_MEDIUM,
} from "../../../src/wire/generate_content/mod.ts";

const ctx = { pathModel: "gem/gemini-2.5-pro" };

function neutral(overrides: Partial<NeutralRequest>): NeutralRequest {
  return {
    model: "gem/gemini-2.5-pro",
    system: [],
    messages: [],
    tools: [],
    params: {},
    stream: false,
    source: "chat_completions",
    ...overrides,
  };
}

Deno.test("encodeRequest() round-trips a Gemini body, unknown fields included", () => {
  const body = {
    contents: [
      {
        role: "user",
        parts: [{ text: "hi" }, { fileData: { fileUri: "gs://b/doc", mimeType: "application/pdf" } }],
      },
      {
        role: "model",
        parts: [
          { text: "hmm", thought: true, thoughtSignature: "s1" },
          { functionCall: { name: "f", args: { a: 1 } }, thoughtSignature: "s2" },
        ],
      },
      { role: "user", parts: [{ functionResponse: { name: "f", response: { ok: true } } }] },
      { role: "model", parts: [{ text: "done", thoughtSignature: "s3" }] },
    ],
    systemInstruction: { parts: [{ text: "sys" }] },
    generationConfig: {
      maxOutputTokens: 10,
      temperature: 0.3,
      responseMimeType: "application/json",
      responseSchema: { type: "OBJECT" },
      thinkingConfig: { thinkingLevel: "high", includeThoughts: true },
    },
    tools: [
      {
        functionDeclarations: [{
          name: "f",
          description: "F",
          parameters: { type: "object", properties: { a: { type: "integer" } } },
        }],
      },
      { codeExecution: {} },
    ],
    toolConfig: { functionCallingConfig: { mode: "AUTO" } },
    safetySettings: [{ category: "HARM_CATEGORY_HATE_SPEECH", threshold: "BLOCK_NONE" }],
    cachedContent: "cachedContents/1",
    labels: { team: "x" },
  };
  const encoded = codec.encodeRequest(codec.decodeRequest(body, ctx), "gemini-2.5-pro");
  assertEquals(encoded.warnings, []);
  assertEquals(encoded.body, body);
});

Deno.test("encodeRequest() merges same-role turns and sends tool results as user functionResponses", () => {
  const { body } = codec.encodeRequest(
    neutral({
      system: [{ kind: "text", text: "sys" }],
      messages: [
        { role: "user", parts: [{ kind: "text", text: "a" }] },
        { role: "user", parts: [{ kind: "text", text: "b" }] },
        {
          role: "assistant",
          parts: [
            { kind: "text", text: "calling" },
            { kind: "toolCall", id: "call_1", name: "lookup", arguments: '{"q":"x"}' },
            { kind: "toolCall", id: "call_2", name: "fetch", arguments: "{}" },
          ],
        },
        {
          role: "tool",
          parts: [{ kind: "toolResult", callId: "call_1", content: [{ kind: "text", text: '{"hits":3}' }] }],
        },
        {
          role: "tool",
          parts: [{ kind: "toolResult", callId: "call_2", content: [{ kind: "text", text: "plain text" }] }],
        },
        { role: "user", parts: [{ kind: "text", text: "thanks" }] },
      ],
    }),
    "gemini-2.5-pro",
  );
  assertEquals(body.model, undefined);
  assertEquals(body.systemInstruction, { parts: [{ text: "sys" }] });
  assertEquals(body.contents, [
    { role: "user", parts: [{ text: "a" }, { text: "b" }] },
    {
      role: "model",
      parts: [
        { text: "calling" },
        { functionCall: { name: "lookup", args: { q: "x" } } },
        { functionCall: { name: "fetch", args: {} } },
      ],
    },
    {
      role: "user",
      parts: [
        { functionResponse: { name: "lookup", response: { hits: 3 } } },
        { functionResponse: { name: "fetch", response: { result: "plain text" } } },
        { text: "thanks" },
      ],
    },
  ]);
});

Deno.test("encodeRequest() prefers the tool result's own name and wraps errors under error", () => {
  const { body, warnings } = codec.encodeRequest(
    neutral({
      messages: [{
        role: "tool",
        parts: [
          {
            kind: "toolResult",
            callId: "x",
            name: "named",
            content: [{ kind: "text", text: "boom" }],
            isError: true,
          },
          { kind: "toolResult", callId: "orphan", content: [{ kind: "text", text: "[1,2]" }] },
        ],
      }],
    }),
    "m",
  );
  assertEquals(body.contents, [{
    role: "user",
    parts: [
      { functionResponse: { name: "named", response: { error: "boom" } } },
      { functionResponse: { name: "orphan", response: { result: "[1,2]" } } },
    ],
  }]);
  assertEquals(warnings, [{
    code: "changed_field:tool_result_name",
    message: 'tool result "orphan" matches no earlier tool call; its id was sent as the name',
    detail: { callId: "orphan" },
  }]);
});

Deno.test("encodeRequest() replays only Gemini thought signatures and drops other families' reasoning", () => {
  const { body, warnings } = codec.encodeRequest(
    neutral({
      messages: [
        { role: "user", parts: [{ kind: "text", text: "q" }] },
        {
          role: "assistant",
          parts: [
            { kind: "reasoning", text: "claude thinks", signature: "anthropic-sig", family: "anthropic" },
            { kind: "reasoning", text: "gemini thinks", signature: "g-sig", family: "google" },
            { kind: "toolCall", id: "a", name: "f", arguments: "{}", signature: "g-call", family: "google" },
            { kind: "toolCall", id: "b", name: "g", arguments: "{}", signature: "x", family: "anthropic" },
            { kind: "toolCall", id: "c", name: "h", arguments: "{}" },
          ],
        },
      ],
    }),
    "m",
  );
  assertEquals((body.contents as unknown[])[1], {
    role: "model",
    parts: [
      { text: "gemini thinks", thought: true, thoughtSignature: "g-sig" },
      { functionCall: { name: "f", args: {} }, thoughtSignature: "g-call" },
      { functionCall: { name: "g", args: {} } },
      { functionCall: { name: "h", args: {} } },
    ],
  });
  assertEquals(warnings, [{
    code: "dropped_part:reasoning",
    message: 'dropped reasoning from provider family "anthropic": Gemini cannot replay it',
    detail: { family: "anthropic" },
  }]);
});

Deno.test("encodeRequest() maps images by URL, data URL and base64", () => {
  const { body } = codec.encodeRequest(
    neutral({
      messages: [{
        role: "user",
        parts: [
          { kind: "image", source: { type: "url", url: "https://x/a.PNG?size=2" } },
          { kind: "image", source: { type: "url", url: "https://x/photo" } },
          { kind: "image", source: { type: "url", url: "data:image/webp;base64,UklG" } },
          { kind: "image", source: { type: "base64", mediaType: "image/gif", data: "R0lG" } },
        ],
      }],
    }),
    "m",
  );
  assertEquals(body.contents, [{
    role: "user",
    parts: [
      { fileData: { fileUri: "https://x/a.PNG?size=2", mimeType: "image/png" } },
      { fileData: { fileUri: "https://x/photo", mimeType: "image/jpeg" } },
      { inlineData: { mimeType: "image/webp", data: "UklG" } },
      { inlineData: { mimeType: "image/gif", data: "R0lG" } },
    ],
  }]);
});

Deno.test("encodeRequest() maps params, reasoning effort to named budgets, and tool choice", () => {
  const effort = (e: "low" | "medium" | "high" | "xhigh") =>
    codec.encodeRequest(neutral({ reasoning: { effort: e, includeThoughts: true } }), "m").body
      .generationConfig;
  assertEquals(effort("low"), {
    thinkingConfig: { thinkingBudget: THINKING_BUDGET_LOW, includeThoughts: true },
  });
  assertEquals(effort("medium"), {
    thinkingConfig: { thinkingBudget: THINKING_BUDGET_MEDIUM, includeThoughts: true },
  });
  assertEquals(effort("high"), {
    thinkingConfig: { thinkingBudget: THINKING_BUDGET_HIGH, includeThoughts: true },
  });
  assertEquals([THINKING_BUDGET_LOW, THINKING_BUDGET_MEDIUM, THINKING_BUDGET_HIGH], [1024, 8192, 24576]);

  const { body, warnings } = codec.encodeRequest(
    neutral({
      params: {
        maxTokens: 50,
        temperature: 0,
        topP: 1,
        topK: 3,
        stop: ["a", "b", "c", "d", "e", "f"],
        seed: 1,
      },
      reasoning: { effort: "high", budgetTokens: 300 },
      tools: [{ name: "f", description: "F", parameters: { type: "object", properties: {} } }],
      toolChoice: { type: "tool", name: "f" },
    }),
    "m",
  );
  assertEquals(body.generationConfig, {
    maxOutputTokens: 50,
    temperature: 0,
    topP: 1,
    topK: 3,
    stopSequences: ["a", "b", "c", "d", "e"],
    seed: 1,
    thinkingConfig: { thinkingBudget: 300 },
  });
  assertEquals(body.tools, [{ functionDeclarations: [{ name: "f", description: "F" }] }]);
  assertEquals(body.toolConfig, { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["f"] } });
  assertEquals(warnings, [{
    code: "changed_field:stop",
    message: "sent only the first 5 of 6 stop sequences (Gemini's limit)",
    detail: { sent: 5, requested: 6 },
  }]);
});

Deno.test("encodeRequest() answers a client that used thinkingLevel with levels, in its own spelling", () => {
  const request = codec.decodeRequest({
    contents: [],
    generationConfig: { thinkingConfig: { thinkingLevel: "HIGH" } },
  }, ctx);
  assertEquals(codec.encodeRequest(request, "m").body.generationConfig, {
    thinkingConfig: { thinkingLevel: "HIGH" },
  });
  const lowered = codec.encodeRequest({ ...request, reasoning: { effort: "low" } }, "m").body;
  assertEquals(lowered.generationConfig, { thinkingConfig: { thinkingLevel: "low" } });
});

Deno.test("encodeRequest() never sends empty tools or a tool config without tools", () => {
  const { body } = codec.encodeRequest(neutral({ toolChoice: { type: "required" } }), "m");
  assertEquals(body, { contents: [] });
});

Deno.test("encodeRequest() drops another format's extra with a warning", () => {
  const { body, warnings } = codec.encodeRequest(
    neutral({ extra: { format: "chat_completions", fields: { user: "u1", logprobs: true } } }),
    "m",
  );
  assertEquals(body, { contents: [] });
  assertEquals(warnings.map((w) => [w.code, w.message]), [
    ["dropped_field:user", "user: a chat_completions field Gemini cannot express; dropped"],
    ["dropped_field:logprobs", "logprobs: a chat_completions field Gemini cannot express; dropped"],
  ]);
});
