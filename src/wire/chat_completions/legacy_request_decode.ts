import type { GatewayWarning, GenerationParams, NeutralRequest } from "../../model/mod.ts";
import { droppedField } from "../../model/mod.ts";
import { invalidAt, isRecord, parseAt } from "../shared/mod.ts";
import { unknownFields, withChatExtra } from "./extra_fields.ts";
import type { Mutable } from "./mutable.ts";
import { z } from "zod";

/**
 * The legacy completions body (`POST /v1/completions`). Fields it shares with chat completions (`user`,
 * `logit_bias`, `stream_options`, …) travel as chat-completions extras; the legacy-only ones are mapped here
 * or reported, because a chat upstream would reject them.
 */
const legacySchema = z.looseObject({
  model: z.string().min(1),
  prompt: z.unknown(),
  suffix: z.string().nullish(),
  max_tokens: z.number().int().nonnegative().nullish(),
  temperature: z.number().nullish(),
  top_p: z.number().nullish(),
  n: z.number().int().positive().nullish(),
  best_of: z.number().int().positive().nullish(),
  stream: z.boolean().nullish(),
  logprobs: z.number().int().nonnegative().nullish(),
  echo: z.boolean().nullish(),
  stop: z.union([z.string(), z.array(z.string())], { error: "must be a string or an array of strings" })
    .nullish(),
  seed: z.number().int().nullish(),
  presence_penalty: z.number().nullish(),
  frequency_penalty: z.number().nullish(),
});

/** Fields this decoder maps or reports; a chat upstream must never see the legacy-only ones. */
const KNOWN_TOP = new Set([
  "model",
  "prompt",
  "suffix",
  "max_tokens",
  "temperature",
  "top_p",
  "n",
  "best_of",
  "stream",
  "logprobs",
  "echo",
  "stop",
  "seed",
  "presence_penalty",
  "frequency_penalty",
  ...chatOnlyFields(),
]);

/** Chat fields a prompt has no place for: reported and dropped, never sent on to a chat upstream. */
function chatOnlyFields(): string[] {
  return ["messages", "tools", "tool_choice", "parallel_tool_calls", "functions", "function_call"];
}

/**
 * Decodes a legacy completions body into a one-turn chat request: the prompt becomes the user's message, so
 * any upstream format can answer it. What a chat turn cannot express (a suffix, log probabilities, echoing
 * the prompt, several choices) is reported on the request as a typed warning, never sent on silently.
 */
export function decodeLegacyCompletionRequest(body: unknown): NeutralRequest {
  if (!isRecord(body)) throw invalidAt([], "must be a JSON object");
  const top = parseAt(legacySchema, body);
  const warnings: GatewayWarning[] = [];
  if (top.suffix != null && top.suffix !== "") {
    warnings.push(droppedField("suffix", "suffix: a chat turn has no text after the answer; dropped"));
  }
  if (top.logprobs != null && top.logprobs > 0) {
    warnings.push(droppedField("logprobs", "logprobs: token log probabilities are not translated; dropped"));
  }
  if (top.echo === true) {
    warnings.push(droppedField("echo", "echo: the answer holds the completion only, not the prompt"));
  }
  if (top.n != null && top.n > 1) {
    warnings.push(droppedField("n", `n: ${top.n} choices were asked for; one is generated`));
  }
  if (top.best_of != null && top.best_of > 1) {
    warnings.push(
      droppedField("best_of", `best_of: ${top.best_of} candidates were asked for; one is generated`),
    );
  }
  for (const field of chatOnlyFields()) {
    if (body[field] != null) {
      warnings.push(droppedField(field, `${field}: a text completion has no conversation or tools; dropped`));
    }
  }
  const request: Mutable<NeutralRequest> = {
    model: top.model,
    system: [],
    messages: [{ role: "user", parts: [{ kind: "text", text: promptText(top.prompt) }] }],
    tools: [],
    params: decodeParams(top),
    stream: top.stream === true,
    source: "chat_completions",
  };
  if (warnings.length > 0) request.warnings = warnings;
  return withChatExtra(request, unknownFields(body, KNOWN_TOP));
}

/** The one prompt: a string, or a list holding one string. Token ids cannot be read back into text. */
function promptText(prompt: unknown): string {
  const text = Array.isArray(prompt) && prompt.length === 1 ? prompt[0] : prompt;
  if (typeof text === "string") {
    if (text === "") throw invalidAt(["prompt"], "must not be empty");
    return text;
  }
  if (prompt === undefined || prompt === null) throw invalidAt(["prompt"], "is required");
  if (Array.isArray(prompt) && prompt.length > 1 && prompt.every((p) => typeof p === "string")) {
    throw invalidAt(["prompt"], `holds ${prompt.length} prompts; send one prompt per request`);
  }
  if (Array.isArray(prompt) && prompt.some((p) => typeof p === "number" || Array.isArray(p))) {
    throw invalidAt(["prompt"], "token ids are not supported; send the prompt as text");
  }
  throw invalidAt(["prompt"], "must be a string or an array holding one string");
}

function decodeParams(top: z.infer<typeof legacySchema>): GenerationParams {
  const params: Mutable<GenerationParams> = {};
  if (top.max_tokens != null) params.maxTokens = top.max_tokens;
  if (top.temperature != null) params.temperature = top.temperature;
  if (top.top_p != null) params.topP = top.top_p;
  if (top.stop != null) params.stop = typeof top.stop === "string" ? [top.stop] : top.stop;
  if (top.seed != null) params.seed = top.seed;
  if (top.presence_penalty != null) params.presencePenalty = top.presence_penalty;
  if (top.frequency_penalty != null) params.frequencyPenalty = top.frequency_penalty;
  return params;
}
