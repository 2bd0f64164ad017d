/**
 * A Responses request that names a reasoning model (`reasoning: {effort, summary}`) keeps its settings on
 * every upstream format that can honour them, each in its own fields, and says with a typed warning what it
 * could not keep (docs/round-trips.md, "Reasoning settings per upstream").
 */
import OpenAI from "openai";
import { assertEquals } from "../helpers/assert.ts";
import { startE2E, textAnswer } from "../e2e/harness.ts";

const MODELS = [
  "gpt-5",
  "o3",
  "gpt-4o",
  "claude-sonnet-4-5",
  "claude-opus-4-6",
  "gemini-2.5-flash",
  "gemini-3-pro-preview",
] as const;

interface Case {
  readonly name: string;
  readonly model: string;
  readonly reasoning: OpenAI.Reasoning;
  readonly maxOutputTokens?: number;
  /** The upstream body's reasoning fields, picked out of the body. */
  readonly sent: unknown;
  readonly warnings: readonly string[];
}

/** The fields each upstream format spells reasoning with. */
function reasoningFields(path: string, body: Record<string, unknown>): unknown {
  if (path.endsWith("/chat/completions")) return { reasoning_effort: body.reasoning_effort };
  if (path.endsWith("/messages")) {
    return { thinking: body.thinking, output_config: body.output_config, max_tokens: body.max_tokens };
  }
  if (path.endsWith("/responses")) return { reasoning: body.reasoning, include: body.include };
  const config = body.generationConfig as Record<string, unknown> | undefined;
  return { thinkingConfig: config?.thinkingConfig };
}

const HIGH: OpenAI.Reasoning = { effort: "high", summary: "auto" };

const CASES: readonly Case[] = [
  {
    name: "chat completions: the effort as reasoning_effort",
    model: "up_chat/gpt-5",
    reasoning: HIGH,
    sent: { reasoning_effort: "high" },
    warnings: [],
  },
  {
    name: "messages: the effort as a thinking budget, max_tokens above it",
    model: "up_messages/claude-sonnet-4-5",
    reasoning: HIGH,
    maxOutputTokens: 2000,
    sent: {
      thinking: { type: "enabled", budget_tokens: 24576 },
      output_config: undefined,
      max_tokens: 26576,
    },
    warnings: ["changed_field:max_tokens"],
  },
  {
    name: "messages: effort none leaves thinking off",
    model: "up_messages/claude-sonnet-4-5",
    reasoning: { effort: "none" as OpenAI.ReasoningEffort },
    sent: { thinking: undefined, output_config: undefined, max_tokens: 4096 },
    warnings: [],
  },
  {
    name:
      "messages (Claude 4.6): the effort as adaptive thinking's output_config.effort, max_tokens as asked",
    model: "up_messages/claude-opus-4-6",
    reasoning: HIGH,
    maxOutputTokens: 2000,
    sent: { thinking: { type: "adaptive" }, output_config: { effort: "high" }, max_tokens: 2000 },
    warnings: [],
  },
  {
    name: "messages (Claude 4.6): xhigh runs at high, the highest effort every adaptive model takes",
    model: "up_messages/claude-opus-4-6",
    reasoning: { effort: "xhigh" as OpenAI.ReasoningEffort },
    sent: { thinking: { type: "adaptive" }, output_config: { effort: "high" }, max_tokens: 4096 + 32768 },
    warnings: ["changed_field:reasoning_effort"],
  },
  {
    name: "generate-content (Gemini 2.5): a thinkingBudget and the thoughts the summary asks for",
    model: "up_generate/gemini-2.5-flash",
    reasoning: { effort: "low", summary: "detailed" },
    sent: { thinkingConfig: { thinkingBudget: 1024, includeThoughts: true } },
    warnings: [],
  },
  {
    name: "generate-content (Gemini 3): a thinkingLevel; xhigh is its highest level",
    model: "up_generate/gemini-3-pro-preview",
    reasoning: { effort: "xhigh" as OpenAI.ReasoningEffort, summary: "auto" },
    sent: { thinkingConfig: { thinkingLevel: "high", includeThoughts: true } },
    warnings: ["changed_field:reasoning_effort"],
  },
  {
    name: "Responses: effort and summary as sent, encrypted reasoning asked for",
    model: "up_responses/gpt-5",
    reasoning: { effort: "medium", summary: "detailed" },
    sent: { reasoning: { effort: "medium", summary: "detailed" }, include: ["reasoning.encrypted_content"] },
    warnings: [],
  },
  {
    name: "chat completions: a model that always reasons runs at its lowest effort for none",
    model: "up_chat/o3",
    reasoning: { effort: "none" as OpenAI.ReasoningEffort },
    sent: { reasoning_effort: "low" },
    warnings: ["changed_field:reasoning_effort"],
  },
  {
    name: "chat completions: a model that does not reason gets no settings, and the client is told",
    model: "up_chat/gpt-4o",
    reasoning: HIGH,
    sent: { reasoning_effort: undefined },
    warnings: ["dropped_field:reasoning"],
  },
];

Deno.test("a Responses request's reasoning settings reach every upstream format in its own fields, or a warning says why not", async (t) => {
  await using e2e = await startE2E(Object.fromEntries(MODELS.map((m) => [m, textAnswer("Done.")])));
  const client = new OpenAI({ baseURL: `${e2e.url}/v1`, apiKey: "anything", maxRetries: 0 });
  for (const c of CASES) {
    await t.step(c.name, async () => {
      for (const stream of [false, true]) {
        const before = e2e.requests.length;
        const ask = {
          model: c.model,
          input: "Think, then answer.",
          reasoning: c.reasoning,
          store: false,
          ...(c.maxOutputTokens ? { max_output_tokens: c.maxOutputTokens } : {}),
        };
        const { response } = stream
          ? await client.responses.create({ ...ask, stream: true }).withResponse()
          : await client.responses.create(ask).withResponse();
        if (stream) await response.body?.cancel();
        const upstream = e2e.requests[before];
        assertEquals(reasoningFields(upstream.path, upstream.body), c.sent, `${c.name} (stream: ${stream})`);
        const header = response.headers.get("x-gateway-warnings") ?? "";
        const codes = header === "" ? [] : header.split(",");
        assertEquals(codes.filter((code) => c.warnings.includes(code)).sort(), [...c.warnings].sort());
        // Nothing else about reasoning was lost on the way.
        assertEquals(codes.filter((code) => /reason|think/.test(code) && !c.warnings.includes(code)), []);
      }
    });
  }
});
