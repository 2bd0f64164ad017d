import { extraFieldsFor, warning } from "../../model/mod.ts";
import type {
  GatewayWarning,
  Message,
  NeutralRequest,
  Part,
  ToolChoice,
  ToolDefinition,
} from "../../model/mod.ts";
import type { EncodedRequest } from "../codec.ts";
import { argumentsLost, isRecord } from "../shared/mod.ts";
import {
  type Block,
  cacheControlField,
  imageBlock,
  isPlainText,
  replayableReasoning,
  textBlock,
  toolResultBlock,
  toolUseBlock,
} from "./blocks_encode.ts";
import { EXTRA_KEYS } from "./request_decode.ts";
import { DEFAULT_MAX_TOKENS, planThinking } from "./thinking.ts";

const FORMAT = "messages";
/** With thinking on, the API only accepts top_p in this range. */
const THINKING_MIN_TOP_P = 0.95;

type WireRole = "user" | "assistant";

/** A wire message being built; tool results are kept apart because they must lead the content. */
interface WireMessage {
  readonly role: WireRole;
  readonly results: Block[];
  readonly others: Block[];
  fields: Record<string, unknown>;
}

/** What was dropped while encoding, reported once per kind. */
interface Dropped {
  reasoning: number;
  imageDetail: boolean;
  misplaced: number;
  /** Tool calls whose arguments were not a JSON object (sent as {}). */
  arguments: number;
}

function encodePart(part: Part, role: WireRole, message: WireMessage, dropped: Dropped): void {
  switch (part.kind) {
    case "text":
      // The API rejects empty text blocks; other formats use them as "no content".
      if (part.text !== "") message.others.push(textBlock(part));
      return;
    case "image":
      if (role === "assistant") {
        dropped.misplaced++;
        return;
      }
      if (part.detail !== undefined) dropped.imageDetail = true;
      message.others.push(imageBlock(part));
      return;
    case "toolCall":
      if (role === "user") {
        dropped.misplaced++;
        return;
      }
      if (argumentsLost(part.arguments)) dropped.arguments++;
      message.others.push(toolUseBlock(part));
      return;
    case "toolResult":
      if (role === "assistant") {
        dropped.misplaced++;
        return;
      }
      message.results.push(toolResultBlock(part));
      return;
    case "reasoning": {
      const block = role === "assistant" ? replayableReasoning(part) : undefined;
      if (block) message.others.push(block);
      else dropped.reasoning++;
      return;
    }
  }
}

function wireRole(message: Message): WireRole {
  switch (message.role) {
    case "assistant":
      return "assistant";
    // Tool results travel in user messages on this wire.
    case "tool":
    case "user":
      return "user";
  }
}

/**
 * Neutral messages → wire messages. Consecutive messages that land on the same role merge, because
 * the API wants alternating roles and every tool_use answered in the very next user message; within
 * a user message the tool_result blocks come first.
 */
function encodeMessages(messages: readonly Message[], warnings: GatewayWarning[]): Block[] {
  const out: WireMessage[] = [];
  const dropped: Dropped = { reasoning: 0, imageDetail: false, misplaced: 0, arguments: 0 };
  for (const message of messages) {
    const role = wireRole(message);
    const current: WireMessage = {
      role,
      results: [],
      others: [],
      fields: extraFieldsFor(message.extra, FORMAT),
    };
    for (const part of message.parts) encodePart(part, role, current, dropped);
    if (current.results.length === 0 && current.others.length === 0) continue;
    const last = out.at(-1);
    if (last && last.role === role) {
      last.results.push(...current.results);
      last.others.push(...current.others);
      last.fields = { ...last.fields, ...current.fields };
    } else {
      out.push(current);
    }
  }
  if (dropped.reasoning > 0) {
    warnings.push(warning(
      "dropped_part:reasoning",
      `dropped ${dropped.reasoning} reasoning block(s) without an Anthropic signature (unsigned or from another provider)`,
      { count: dropped.reasoning },
    ));
  }
  if (dropped.imageDetail) {
    warnings.push(
      warning("dropped_field:image_detail", "image detail hints cannot be expressed in the messages format"),
    );
  }
  if (dropped.arguments > 0) {
    warnings.push(warning(
      "changed_field:tool_arguments",
      `${dropped.arguments} tool call(s) had arguments that are not a JSON object; sent as {}`,
      { count: dropped.arguments },
    ));
  }
  if (dropped.misplaced > 0) {
    warnings.push(warning(
      "dropped_part:misplaced",
      `dropped ${dropped.misplaced} part(s) the messages format does not allow in that role`,
      { count: dropped.misplaced },
    ));
  }
  return out.map((message) => {
    const content = [...message.results, ...message.others];
    const only = content.length === 1 ? content[0] : undefined;
    return {
      ...message.fields,
      role: message.role,
      content: only && isPlainText(only) ? only.text : content,
    };
  });
}

function encodeTool(tool: ToolDefinition): Block {
  // The API insists on an object schema; some clients send `{}` for tools without parameters.
  const schema = tool.parameters.type === undefined
    ? { type: "object", ...tool.parameters }
    : tool.parameters;
  return {
    ...extraFieldsFor(tool.extra, FORMAT),
    name: tool.name,
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    input_schema: schema,
    ...cacheControlField(tool.cacheControl),
  };
}

function encodeToolChoice(choice: ToolChoice, extra: Record<string, unknown>): Block {
  switch (choice.type) {
    case "auto":
      return { type: "auto", ...extra };
    case "none":
      return { type: "none", ...extra };
    case "required":
      return { type: "any", ...extra };
    case "tool":
      return { type: "tool", name: choice.name, ...extra };
  }
}

function take(fields: Record<string, unknown>, key: string): unknown {
  const value = fields[key];
  delete fields[key];
  return value;
}

function encodeSystem(request: NeutralRequest): unknown {
  const blocks = request.system.filter((part) => part.text !== "").map(textBlock);
  if (blocks.length === 0) return undefined;
  return blocks.length === 1 && isPlainText(blocks[0]) ? blocks[0].text : blocks;
}

/** Sampling parameters, minus those the API rejects while thinking is on. */
function samplingFields(request: NeutralRequest, thinkingOn: boolean, warnings: GatewayWarning[]): Block {
  const { temperature, topP, topK, stop } = request.params;
  const out: Block = {};
  if (temperature !== undefined) {
    if (thinkingOn && temperature !== 1) {
      warnings.push(
        warning("dropped_field:temperature", "temperature dropped: the API rejects it with thinking on"),
      );
    } else out.temperature = temperature;
  }
  if (topP !== undefined) {
    if (thinkingOn && topP < THINKING_MIN_TOP_P) {
      warnings.push(warning("dropped_field:top_p", "top_p dropped: below 0.95 with thinking on"));
    } else out.top_p = topP;
  }
  if (topK !== undefined) {
    if (thinkingOn) {
      warnings.push(warning("dropped_field:top_k", "top_k dropped: the API rejects it with thinking on"));
    } else out.top_k = topK;
  }
  if (stop && stop.length > 0) out.stop_sequences = stop;
  const { seed, presencePenalty, frequencyPenalty } = request.params;
  if (seed !== undefined) {
    warnings.push(warning("dropped_field:seed", "seed cannot be expressed in the messages format"));
  }
  if (presencePenalty !== undefined) {
    warnings.push(
      warning(
        "dropped_field:presence_penalty",
        "presence_penalty cannot be expressed in the messages format",
      ),
    );
  }
  if (frequencyPenalty !== undefined) {
    warnings.push(
      warning(
        "dropped_field:frequency_penalty",
        "frequency_penalty cannot be expressed in the messages format",
      ),
    );
  }
  return out;
}

/**
 * Whether the turn in progress (the last assistant message, answered by tool results only) uses tools
 * without opening with a thinking block: with thinking on, the API rejects such a request.
 */
function unsignedToolTurn(messages: readonly Block[]): boolean {
  const at = messages.findLastIndex((m) => m.role === "assistant");
  if (at === -1) return false;
  const content = messages[at].content;
  if (!Array.isArray(content) || !content.some((b) => isRecord(b) && b.type === "tool_use")) return false;
  const answer = messages[at + 1]?.content;
  const loopGoesOn = Array.isArray(answer) && answer.length > 0 &&
    answer.every((b) => isRecord(b) && b.type === "tool_result");
  const first = content[0];
  return loopGoesOn &&
    !(isRecord(first) && (first.type === "thinking" || first.type === "redacted_thinking"));
}

/** Neutral request → a messages API body for `upstreamModel`. */
export function encodeRequest(request: NeutralRequest, upstreamModel: string): EncodedRequest {
  const warnings: GatewayWarning[] = [];
  const extra = extraFieldsFor(request.extra, FORMAT);
  const serverTools = take(extra, EXTRA_KEYS.serverTools);
  const choiceExtra = take(extra, EXTRA_KEYS.toolChoice);
  const rawThinking = take(extra, EXTRA_KEYS.thinking);

  const tools: Block[] = [
    ...request.tools.map(encodeTool),
    ...(Array.isArray(serverTools) ? serverTools : []),
  ];
  const forced = request.toolChoice?.type === "required" || request.toolChoice?.type === "tool";
  const plan = planThinking(request, rawThinking, extra.output_config, upstreamModel);
  if (plan.outputConfig) {
    extra.output_config = {
      ...(isRecord(extra.output_config) ? extra.output_config : {}),
      ...plan.outputConfig,
    };
  }
  warnings.push(...plan.warnings);
  let thinking = plan.thinking;
  let maxTokens = plan.maxTokens;
  if (thinking && thinking.type !== "disabled" && forced && tools.length > 0) {
    warnings.push(
      warning(
        "dropped_field:thinking",
        "thinking dropped: the API rejects it while tool_choice forces a tool",
      ),
    );
    thinking = undefined;
    maxTokens = request.params.maxTokens ?? DEFAULT_MAX_TOKENS;
  }
  const messages = encodeMessages(request.messages, warnings);
  if (thinking && thinking.type !== "disabled" && unsignedToolTurn(messages)) {
    // The API rejects this history with thinking on; without thinking it accepts it as it is.
    warnings.push(warning(
      "changed_field:thinking",
      "thinking turned off: the current tool-use turn has no signed thinking block (its client could not carry it back)",
    ));
    thinking = undefined;
    maxTokens = request.params.maxTokens ?? DEFAULT_MAX_TOKENS;
  }
  const thinkingOn = thinking !== undefined && thinking.type !== "disabled";
  const system = encodeSystem(request);

  const body: Record<string, unknown> = {
    ...extra,
    model: upstreamModel,
    max_tokens: maxTokens,
    ...(system !== undefined ? { system } : {}),
    messages,
    // An empty tools array is rejected by several upstreams; tool_choice is meaningless without tools.
    ...(tools.length > 0 ? { tools } : {}),
    ...(tools.length > 0 && request.toolChoice
      ? { tool_choice: encodeToolChoice(request.toolChoice, isRecord(choiceExtra) ? choiceExtra : {}) }
      : {}),
    ...(thinking ? { thinking } : {}),
    ...samplingFields(request, thinkingOn, warnings),
    ...(request.stream ? { stream: true } : {}),
  };
  return { body, warnings };
}
