import type {
  Message,
  NeutralRequest,
  ReasoningIntent,
  ToolChoice,
  ToolResultPart,
} from "../../model/mod.ts";
import { droppedField, extraFieldsFor, foreignExtraFields, partsText, warning } from "../../model/mod.ts";
import { isRecord, requiresThoughtSignatures, SKIP_THOUGHT_SIGNATURE, tryParseJson } from "../shared/mod.ts";
import type { EncodedRequest } from "../codec.ts";
import { mergeUnder } from "./merge.ts";
import { encodePart, type WirePart } from "./parts_encode.ts";
import { reduceSchema } from "./schema_reduce.ts";
import { budgetForEffort, effortForLevel, levelForEffort, takesThinkingLevels } from "./thinking.ts";
import { Warnings } from "./warnings.ts";

const FORMAT = "generate_content";
/** Gemini rejects more stop sequences than this. */
export const MAX_STOP_SEQUENCES = 5;

/** Encodes a neutral request for a Gemini upstream; the model goes in the URL, not the body. */
export function encodeRequest(request: NeutralRequest, upstreamModel: string): EncodedRequest {
  const warnings = new Warnings();
  const own = extraFieldsFor(request.extra, FORMAT);
  if (request.extra) {
    for (const name of foreignExtraFields(request.extra, FORMAT)) {
      warnings.add(
        droppedField(name, `${name}: a ${request.extra.format} field Gemini cannot express; dropped`),
      );
    }
  }

  const contents = encodeContents(request.messages, warnings);
  if (requiresThoughtSignatures(upstreamModel)) signActiveLoop(contents, warnings);
  const body: Record<string, unknown> = { contents };
  if (request.system.length > 0) {
    body.systemInstruction = { parts: request.system.map((p) => ({ text: p.text })) };
  }
  if (request.system.some((p) => p.cacheControl) || request.messages.some(hasCacheControl)) {
    warnings.add(
      warning("dropped_field:cache_control", "dropped cache breakpoints: Gemini caches implicitly"),
    );
  }

  const generationConfig = encodeGeneration(request, own, upstreamModel, warnings);
  if (Object.keys(generationConfig).length > 0) body.generationConfig = generationConfig;

  const declarations = request.tools.map((tool) => {
    const parameters = reduceSchema(tool.parameters, `tool "${tool.name}"`);
    const declaration: Record<string, unknown> = {
      ...extraFieldsFor(tool.extra, FORMAT),
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
    };
    // Gemini rejects an object schema with no properties; a tool without parameters omits the field.
    if (isRecord(parameters.properties) && Object.keys(parameters.properties).length > 0) {
      declaration.parameters = parameters;
    }
    return declaration;
  });
  const { tools: ownTools, ...ownRest } = own;
  const tools = [
    ...(declarations.length > 0 ? [{ functionDeclarations: declarations }] : []),
    ...(Array.isArray(ownTools) ? ownTools : []),
  ];
  if (tools.length > 0) body.tools = tools;
  if (declarations.length > 0 && request.toolChoice) {
    body.toolConfig = { functionCallingConfig: encodeToolChoice(request.toolChoice) };
  }
  return { body: mergeUnder(body, ownRest), warnings: warnings.list() };
}

/**
 * Gemini 3 validates the signatures of the current turn: the model steps since the last user content
 * that is not only function responses. A step whose first functionCall has none (the client could not
 * carry it, and the gateway had none kept) gets Google's skip value instead of a certain 400.
 */
function signActiveLoop(contents: Record<string, unknown>[], warnings: Warnings): void {
  let start = 0;
  contents.forEach((content, i) => {
    const parts = content.parts as WirePart[];
    if (content.role === "user" && parts.some((p) => p.functionResponse === undefined)) start = i + 1;
  });
  for (const content of contents.slice(start)) {
    if (content.role !== "model") continue;
    const call = (content.parts as WirePart[]).find((p) => p.functionCall !== undefined);
    if (call === undefined || typeof call.thoughtSignature === "string") continue;
    call.thoughtSignature = SKIP_THOUGHT_SIGNATURE;
    const name = (call.functionCall as { name?: unknown }).name;
    warnings.add(warning(
      "changed_part:signature",
      `tool call "${String(name)}" has no thought signature to send back; sent Gemini's skip value`,
      { tool: String(name) },
    ));
  }
}

function hasCacheControl(message: Message): boolean {
  return message.parts.some((part) => "cacheControl" in part && part.cacheControl !== undefined);
}

/**
 * Messages → contents. Gemini wants user and model turns to alternate, so consecutive turns of the
 * same Gemini role (tool results are user turns) merge into one content.
 */
function encodeContents(messages: readonly Message[], warnings: Warnings): Record<string, unknown>[] {
  const callNames = new Map<string, string>();
  const contents: { role: string; parts: WirePart[] }[] = [];
  for (const message of messages) {
    const role = message.role === "assistant" ? "model" : "user";
    const parts: WirePart[] = [];
    for (const part of message.parts) {
      if (part.kind === "toolResult") {
        parts.push(encodeToolResult(part, callNames, warnings));
        continue;
      }
      if (part.kind === "toolCall") callNames.set(part.id, part.name);
      const wire = encodePart(part, "upstream", warnings);
      if (wire) parts.push(wire);
    }
    if (parts.length === 0) continue;
    const last = contents.at(-1);
    if (last && last.role === role) last.parts.push(...parts);
    else contents.push({ ...extraFieldsFor(message.extra, FORMAT), role, parts });
  }
  return contents;
}

function encodeToolResult(
  part: ToolResultPart,
  callNames: Map<string, string>,
  warnings: Warnings,
): WirePart {
  let name = part.name ?? callNames.get(part.callId);
  if (name === undefined) {
    warnings.add(warning(
      "changed_field:tool_result_name",
      `tool result "${part.callId}" matches no earlier tool call; its id was sent as the name`,
      { callId: part.callId },
    ));
    name = part.callId;
  }
  if (part.content.some((content) => content.kind === "image")) {
    warnings.add(
      warning(
        "dropped_part:image",
        "dropped images inside tool results: Gemini function responses carry JSON only",
      ),
    );
  }
  const text = partsText(part.content);
  const parsed = tryParseJson(text);
  // Gemini wants an object; by its convention a failure goes under "error" and anything else under "result".
  const response = isRecord(parsed) ? parsed : part.isError ? { error: text } : { result: text };
  return { ...extraFieldsFor(part.extra, FORMAT), functionResponse: { name, response } };
}

function encodeGeneration(
  request: NeutralRequest,
  own: Record<string, unknown>,
  upstreamModel: string,
  warnings: Warnings,
): Record<string, unknown> {
  const p = request.params;
  const config: Record<string, unknown> = {};
  if (p.maxTokens !== undefined) config.maxOutputTokens = p.maxTokens;
  if (p.temperature !== undefined) config.temperature = p.temperature;
  if (p.topP !== undefined) config.topP = p.topP;
  if (p.topK !== undefined) config.topK = p.topK;
  if (p.stop !== undefined && p.stop.length > 0) {
    if (p.stop.length > MAX_STOP_SEQUENCES) {
      warnings.add(warning(
        "changed_field:stop",
        `sent only the first ${MAX_STOP_SEQUENCES} of ${p.stop.length} stop sequences (Gemini's limit)`,
        { sent: MAX_STOP_SEQUENCES, requested: p.stop.length },
      ));
    }
    config.stopSequences = p.stop.slice(0, MAX_STOP_SEQUENCES);
  }
  if (p.seed !== undefined) config.seed = p.seed;
  if (p.presencePenalty !== undefined) config.presencePenalty = p.presencePenalty;
  if (p.frequencyPenalty !== undefined) config.frequencyPenalty = p.frequencyPenalty;
  if (request.reasoning) {
    const ownThinking = isRecord(own.generationConfig) ? own.generationConfig.thinkingConfig : undefined;
    const clientLevel = isRecord(ownThinking) && typeof ownThinking.thinkingLevel === "string"
      ? ownThinking.thinkingLevel
      : undefined;
    const thinking = encodeThinking(request.reasoning, clientLevel, takesThinkingLevels(upstreamModel));
    if (Object.keys(thinking).length > 0) config.thinkingConfig = thinking;
  }
  return config;
}

/**
 * Budget wins over effort; an effort goes as a Gemini 3 level to a model that takes levels, in the
 * client's own spelling when a Gemini client spoke in levels and the effort is unchanged.
 */
function encodeThinking(
  reasoning: ReasoningIntent,
  clientLevel: string | undefined,
  levels: boolean,
): Record<string, unknown> {
  const thinking: Record<string, unknown> = {};
  const effort = reasoning.effort;
  if (reasoning.budgetTokens !== undefined) thinking.thinkingBudget = reasoning.budgetTokens;
  else if (effort !== undefined && clientLevel !== undefined) {
    thinking.thinkingLevel = effortForLevel(clientLevel) === effort ? clientLevel : levelForEffort(effort);
  } else if (effort !== undefined) {
    if (levels) thinking.thinkingLevel = levelForEffort(effort);
    else thinking.thinkingBudget = budgetForEffort(effort);
  }
  if (reasoning.includeThoughts !== undefined) thinking.includeThoughts = reasoning.includeThoughts;
  return thinking;
}

function encodeToolChoice(choice: ToolChoice): Record<string, unknown> {
  switch (choice.type) {
    case "auto":
      return { mode: "AUTO" };
    case "none":
      return { mode: "NONE" };
    case "required":
      return { mode: "ANY" };
    case "tool":
      return { mode: "ANY", allowedFunctionNames: [choice.name] };
  }
}
