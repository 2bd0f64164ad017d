import type {
  Extra,
  ImagePart,
  Message,
  NeutralRequest,
  Part,
  ReasoningIntent,
  TextPart,
  ToolCallPart,
  ToolChoice,
  ToolDefinition,
  ToolResultPart,
} from "../../model/mod.ts";
import { extraFieldsFor, warning } from "../../model/mod.ts";
import type { EncodedRequest } from "../codec.ts";
import { isRecord, requiresThoughtSignatures, SKIP_THOUGHT_SIGNATURE } from "../shared/mod.ts";
import { mergeExtraFields } from "./extra_fields.ts";
import { cacheHint, encodeContent, type Encoding, withExtra } from "./parts_encode.ts";

const FORMAT = "chat_completions";

type Json = Record<string, unknown>;

/**
 * Encodes a neutral request as a chat-completions body for `upstreamModel`. A request that came from
 * this format gets its unmapped fields back at top, message and part level.
 */
export function encodeChatRequest(request: NeutralRequest, upstreamModel: string): EncodedRequest {
  const enc: Encoding = { sameFormat: request.source === FORMAT, upstreamModel, warnings: [] };
  const messages: Json[] = request.system.map((part) => encodeSystem(part, enc));
  for (const message of request.messages) encodeMessage(message, enc, messages);

  const body: Json = { model: upstreamModel, messages };
  const hasTools = request.tools.length > 0;
  if (hasTools) {
    body.tools = request.tools.map((tool) => encodeTool(tool, enc));
    if (request.toolChoice) body.tool_choice = encodeToolChoice(request.toolChoice);
  }
  encodeParams(request, body, enc);
  const extra = extraFieldsFor(request.extra, FORMAT);
  if (!hasTools) {
    // Upstreams reject tool_choice / parallel_tool_calls without tools (and `tools: []` itself).
    delete extra.tool_choice;
    delete extra.parallel_tool_calls;
    if (Array.isArray(extra.tools) && extra.tools.length === 0) delete extra.tools;
  }
  const streamOptions = extra.stream_options;
  delete extra.stream_options;
  if (request.stream) {
    body.stream = true;
    // Without include_usage an OpenAI-compatible upstream reports no usage on streams.
    body.stream_options = { ...(isRecord(streamOptions) ? streamOptions : {}), include_usage: true };
  }
  mergeExtraFields(body, extra);
  return { body, warnings: enc.warnings };
}

function encodeParams(request: NeutralRequest, body: Json, enc: Encoding): void {
  const p = request.params;
  if (p.maxTokens !== undefined) body[maxTokensField(enc.upstreamModel)] = p.maxTokens;
  if (p.temperature !== undefined) body.temperature = p.temperature;
  if (p.topP !== undefined) body.top_p = p.topP;
  if (p.topK !== undefined) {
    enc.warnings.push(
      warning("dropped_field:top_k", `top_k (${p.topK}) cannot be expressed in chat completions; dropped`),
    );
  }
  if (p.stop !== undefined && p.stop.length > 0) body.stop = [...p.stop];
  if (p.seed !== undefined) body.seed = p.seed;
  if (p.presencePenalty !== undefined) body.presence_penalty = p.presencePenalty;
  if (p.frequencyPenalty !== undefined) body.frequency_penalty = p.frequencyPenalty;
  const effort = reasoningEffort(request.reasoning, enc);
  if (effort !== undefined) body.reasoning_effort = effort;
}

// Module-level: a regex literal inside a function is a new RegExp object on every call.
const NEEDS_COMPLETION_TOKENS_START = /^(gpt-5|o\d)/;
const NEEDS_COMPLETION_TOKENS_INSIDE = /-o\d(-|$)/;

/** o-series and GPT-5 models reject `max_tokens`; everyone else knows it best. */
function maxTokensField(model: string): string {
  // The last path segment (`openai/o3` → `o3`); the whole string when there is no slash.
  const last = model.slice(model.lastIndexOf("/") + 1).toLowerCase();
  return NEEDS_COMPLETION_TOKENS_START.test(last) || NEEDS_COMPLETION_TOKENS_INSIDE.test(last)
    ? "max_completion_tokens"
    : "max_tokens";
}

function reasoningEffort(intent: ReasoningIntent | undefined, enc: Encoding): string | undefined {
  if (!intent) return undefined;
  if (intent.effort !== undefined) return intent.effort;
  if (intent.budgetTokens === undefined) return undefined;
  const budget = intent.budgetTokens;
  const effort = budget <= 0 ? "none" : budget <= 2048 ? "low" : budget <= 16384 ? "medium" : "high";
  enc.warnings.push(
    warning(
      "changed_field:reasoning_budget",
      `reasoning budget of ${budget} tokens expressed as reasoning_effort "${effort}"`,
      { budget, effort },
    ),
  );
  return effort;
}

function encodeToolChoice(choice: ToolChoice): unknown {
  switch (choice.type) {
    case "auto":
    case "none":
    case "required":
      return choice.type;
    case "tool":
      return { type: "function", function: { name: choice.name } };
  }
}

function encodeTool(tool: ToolDefinition, enc: Encoding): Json {
  const fn: Json = { name: tool.name };
  if (tool.description !== undefined) fn.description = tool.description;
  fn.parameters = tool.parameters;
  const out: Json = { type: "function", function: fn };
  cacheHint(out, tool.cacheControl, `tool "${tool.name}"`, enc);
  return withExtra(out, tool.extra);
}

function encodeSystem(part: TextPart, enc: Encoding): Json {
  const fields = extraFieldsFor(part.extra, FORMAT);
  const role = fields.role === "developer" ? "developer" : "system";
  delete fields.role;
  const message: Json = { role, content: part.text };
  if (part.cacheControl) {
    const content: Json = { type: "text", text: part.text };
    if (cacheHint(content, part.cacheControl, "system text", enc)) message.content = [content];
  }
  return mergeExtraFields(message, fields);
}

/** Appends the wire message(s) one neutral message becomes to `out`. */
function encodeMessage(message: Message, enc: Encoding, out: Json[]): void {
  // Tool results go first as their own tool messages: OpenAI pairs them with the preceding tool calls.
  let results = 0;
  for (const part of message.parts) {
    if (part.kind !== "toolResult") continue;
    out.push(encodeToolResult(part, message.extra, enc));
    results++;
  }
  const others = message.parts.length - results;
  switch (message.role) {
    case "tool":
      if (others > 0) {
        enc.warnings.push(
          warning("dropped_part:misplaced", `${others} non-tool-result part(s) in a tool message dropped`, {
            count: others,
          }),
        );
      }
      return;
    case "user":
      if (results === 0 || others > 0) out.push(encodeUser(message, enc));
      return;
    case "assistant":
      out.push(encodeAssistant(message, enc));
      return;
  }
}

function encodeUser(message: Message, enc: Encoding): Json {
  // The parts themselves when all are content (the usual case): no filtered copy to build.
  const content = message.parts.every(isContentPart) ? message.parts : userContent(message.parts, enc);
  const out: Json = { role: "user", content: encodeContent(content, enc, false) };
  if (message.name !== undefined) out.name = message.name;
  return withExtra(out, message.extra);
}

function isContentPart(part: Part): part is TextPart | ImagePart {
  return part.kind === "text" || part.kind === "image";
}

/** The text and image parts of a user message; other parts are dropped with a warning. */
function userContent(parts: readonly Part[], enc: Encoding): (TextPart | ImagePart)[] {
  const content: (TextPart | ImagePart)[] = [];
  for (const part of parts) {
    if (isContentPart(part)) content.push(part);
    else if (part.kind !== "toolResult") {
      const code = part.kind === "toolCall" ? "dropped_part:tool_call" : "dropped_part:reasoning";
      enc.warnings.push(warning(code, `${part.kind} part in a user message dropped`));
    }
  }
  return content;
}

function encodeAssistant(message: Message, enc: Encoding): Json {
  const texts: TextPart[] = [];
  const calls: Json[] = [];
  let reasoning = "";
  for (const part of message.parts) {
    switch (part.kind) {
      case "text":
        texts.push(part);
        break;
      case "toolCall":
        calls.push(encodeToolCall(part, enc, calls.length === 0));
        break;
      case "reasoning":
        reasoning += part.text;
        if (part.signature !== undefined) {
          enc.warnings.push(
            warning(
              "dropped_part:signature",
              "reasoning signature cannot be expressed in chat completions; dropped",
            ),
          );
        }
        if (part.redactedData !== undefined) {
          enc.warnings.push(
            warning(
              "dropped_part:redacted_reasoning",
              "redacted reasoning cannot be expressed in chat completions; dropped",
            ),
          );
        }
        break;
      case "image":
        enc.warnings.push(warning("dropped_part:image", "image part in an assistant message dropped"));
        break;
      case "toolResult":
        break;
    }
  }
  const out: Json = { role: "assistant" };
  out.content = texts.length > 0 ? encodeContent(texts, enc, true) : calls.length > 0 ? null : "";
  // Upstreams reject `tool_calls: []`; only send the key when there are calls.
  if (calls.length > 0) out.tool_calls = calls;
  // DeepSeek-style upstreams require the reasoning of tool-call turns to be sent back.
  if (reasoning !== "") out.reasoning_content = reasoning;
  if (message.name !== undefined) out.name = message.name;
  return withExtra(out, message.extra);
}

function encodeToolCall(part: ToolCallPart, enc: Encoding, first: boolean): Json {
  const out: Json = {
    id: part.id,
    type: "function",
    function: { name: part.name, arguments: part.arguments === "" ? "{}" : part.arguments },
  };
  if (part.signature !== undefined) {
    // Only Gemini's OpenAI-compatible endpoint reads thought signatures, from `extra_content.google`.
    if (part.family === "google" && enc.upstreamModel.toLowerCase().includes("gemini")) {
      out.extra_content = { google: { thought_signature: part.signature } };
    } else {
      enc.warnings.push(
        warning(
          "dropped_part:signature",
          `tool call signature of "${part.name}" cannot be expressed for this upstream; dropped`,
          { tool: part.name },
        ),
      );
    }
  } else if (first && requiresThoughtSignatures(enc.upstreamModel)) {
    // Gemini 3's OpenAI-compatible endpoint rejects a step's first call without one, like its native API.
    out.extra_content = { google: { thought_signature: SKIP_THOUGHT_SIGNATURE } };
    enc.warnings.push(
      warning(
        "changed_part:signature",
        `tool call "${part.name}" has no thought signature to send back; sent Gemini's skip value`,
        { tool: part.name },
      ),
    );
  }
  return withExtra(out, part.extra);
}

function encodeToolResult(part: ToolResultPart, messageExtra: Extra | undefined, enc: Encoding): Json {
  const texts: TextPart[] = [];
  for (const item of part.content) {
    if (item.kind === "text") texts.push(item);
    else {
      enc.warnings.push(
        warning(
          "dropped_part:image",
          `image in the result of tool call "${part.callId}" dropped (tool messages carry text)`,
          { callId: part.callId },
        ),
      );
    }
  }
  if (part.isError) {
    enc.warnings.push(
      warning(
        "dropped_field:tool_error",
        `error flag of tool result "${part.callId}" cannot be expressed in chat completions`,
        { callId: part.callId },
      ),
    );
  }
  const out: Json = { role: "tool", tool_call_id: part.callId, content: encodeContent(texts, enc, true) };
  if (enc.sameFormat && part.name !== undefined) out.name = part.name;
  cacheHint(out, part.cacheControl, `tool result "${part.callId}"`, enc);
  withExtra(out, messageExtra);
  return withExtra(out, part.extra);
}
