import type { NeutralRequest, WireFormat } from "../../src/model/mod.ts";
import { codecFor } from "../../src/wire/mod.ts";
import {
  addWarnings,
  droppedExtraWarnings,
  type GatewayWarning,
  warningCodes,
  warningsHeaderValue,
} from "../../src/gateway/warnings.ts";
import { assert, assertEquals } from "../helpers/assert.ts";

const FORMATS: readonly WireFormat[] = [
  "chat_completions",
  "responses",
  "messages",
  "generate_content",
  "local_runner",
];

const image = {
  kind: "image",
  source: { type: "url", url: "https://example.com/a.png" },
  detail: "high",
} as const;

/** A request that loses something in every format: every parameter, odd parts in odd places. */
function lossyRequest(source: WireFormat, reasoningBudget: number): NeutralRequest {
  return {
    model: "p/m",
    source,
    stream: false,
    system: [{ kind: "text", text: "be brief", cacheControl: { type: "ephemeral" } }],
    params: {
      maxTokens: 100,
      temperature: 0.5,
      topP: 0.5,
      topK: 5,
      stop: ["a", "b", "c", "d", "e", "f"],
      seed: 1,
      presencePenalty: 0.1,
      frequencyPenalty: 0.1,
    },
    reasoning: { budgetTokens: reasoningBudget },
    toolChoice: { type: "required" },
    tools: [{ name: "f", parameters: { type: "object" }, cacheControl: { type: "ephemeral" } }],
    extra: { format: source, fields: { store: true, truncation: "auto" } },
    messages: [
      {
        role: "user",
        parts: [
          { kind: "text", text: "hi" },
          image,
          { kind: "reasoning", text: "user thoughts", family: "openai" },
          { kind: "toolCall", id: "x", name: "f", arguments: "{}" },
        ],
      },
      {
        role: "assistant",
        parts: [
          { kind: "reasoning", text: "hm", signature: "sig", family: "openai" },
          { kind: "reasoning", text: "", redactedData: "opaque", family: "anthropic" },
          image,
          { kind: "text", text: "calling" },
          { kind: "toolCall", id: "c1", name: "f", arguments: "[1]", signature: "tsig", family: "google" },
        ],
      },
      {
        role: "tool",
        parts: [
          { kind: "toolResult", callId: "c1", content: [{ kind: "text", text: "r" }, image], isError: true },
          { kind: "toolResult", callId: "nobody", content: [{ kind: "text", text: "r2" }] },
          { kind: "text", text: "stray" },
        ],
      },
    ],
  };
}

Deno.test("warningCodes() gives every codec warning a code: none falls to `other`", () => {
  const seen = new Set<string>();
  for (const target of FORMATS) {
    for (const source of FORMATS) {
      for (const budget of [100, 50_000]) {
        const { warnings } = codecFor(target).encodeRequest(lossyRequest(source, budget), "m");
        for (const message of warnings) {
          const codes = warningCodes(message);
          assert(!codes.includes("other"), `no code for ${target} warning: "${message}"`);
          for (const code of codes) seen.add(code);
        }
      }
    }
  }
  // The request above is lossy enough to exercise most families of codes.
  for (
    const code of [
      "dropped_field:top_k",
      "dropped_part:image",
      "dropped_part:reasoning",
      "changed_field:max_tokens",
    ]
  ) {
    assert(seen.has(code), `expected ${code} among ${[...seen].join(", ")}`);
  }
});

Deno.test("warningCodes() names each field of a dropped-fields sentence, made header-safe", () => {
  assertEquals(warningCodes("dropped responses fields Gemini cannot express: store, truncation"), [
    "dropped_field:store",
    "dropped_field:truncation",
  ]);
  assertEquals(warningCodes("dropped responses fields Gemini cannot express: prevResp, a b\u00e9"), [
    "dropped_field:prev_resp",
    "dropped_field:a_b_",
  ]);
  assertEquals(warningCodes("something no codec says"), ["other"]);
});

Deno.test("droppedExtraWarnings() reports a client format's own fields only when the target differs", () => {
  const request = lossyRequest("responses", 100);
  assertEquals(droppedExtraWarnings(request, "responses"), []);
  assertEquals(droppedExtraWarnings(request, "messages").map((w) => w.code), [
    "dropped_field:store",
    "dropped_field:truncation",
  ]);
});

Deno.test("warnings keep one entry per code; the header lists codes and caps their number", () => {
  const list: GatewayWarning[] = droppedExtraWarnings(lossyRequest("responses", 100), "generate_content");
  addWarnings(list, [
    "dropped responses fields Gemini cannot express: store, truncation",
    "seed cannot be expressed",
  ]);
  assertEquals(list.map((w) => w.code), [
    "dropped_field:store",
    "dropped_field:truncation",
    "dropped_field:seed",
  ]);
  assertEquals(warningsHeaderValue(list), "dropped_field:store,dropped_field:truncation,dropped_field:seed");
  const many = Array.from({ length: 40 }, (_, i) => ({ code: `dropped_field:f${i}`, message: "" }));
  const header = warningsHeaderValue(many).split(",");
  assertEquals([header.length, header.at(-1)], [33, "more:8"]);
});

Deno.test("tool-call arguments that are not a JSON object are never turned into {} silently", () => {
  const deep = "[".repeat(200) + "]".repeat(200);
  for (const target of ["messages", "generate_content", "local_runner"] as const) {
    const request = lossyRequest("chat_completions", 100);
    const withDeepArguments = {
      ...request,
      messages: [
        ...request.messages,
        {
          role: "assistant" as const,
          parts: [{ kind: "toolCall" as const, id: "deep1", name: "f", arguments: deep }],
        },
      ],
    };
    const { warnings } = codecFor(target).encodeRequest(withDeepArguments, "m");
    const codes = warnings.flatMap((w) => warningCodes(w));
    assert(codes.includes("changed_field:tool_arguments"), `${target}: ${warnings.join(" | ")}`);
  }
});
