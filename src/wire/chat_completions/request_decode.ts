import type {
  GenerationParams,
  Message,
  NeutralRequest,
  Part,
  ReasoningEffort,
  ReasoningIntent,
  TextPart,
  ToolCallPart,
  ToolChoice,
  ToolDefinition,
  ToolResultPart,
} from "../../model/mod.ts";
import { invalidRequest } from "../../model/mod.ts";
import { invalidAt, isRecord, parseAt, quoteValue } from "../shared/mod.ts";
import { chatExtra, unknownFields, withChatExtra } from "./extra_fields.ts";
import { googleSignature } from "./google_signature.ts";
import { decodeCacheControl, decodeContent } from "./parts_decode.ts";
import type { Mutable } from "./mutable.ts";
import {
  assistantMessageSchema,
  requestSchema,
  systemMessageSchema,
  toolCallSchema,
  toolMessageSchema,
  toolSchema,
  userMessageSchema,
} from "./schema.ts";
import {
  isPlainAssistantMessage,
  isPlainRequest,
  isPlainSystemMessage,
  isPlainToolMessage,
  isPlainUserMessage,
} from "./schema_guards.ts";
import type { z } from "zod";

/** Top-level fields the neutral model maps; everything else travels in `extra`. */
const KNOWN_TOP = new Set([
  "model",
  "messages",
  "tools",
  "tool_choice",
  "stop",
  "max_tokens",
  "max_completion_tokens",
  "temperature",
  "top_p",
  "seed",
  "presence_penalty",
  "frequency_penalty",
  "reasoning_effort",
  "stream",
]);

// The fields each level maps; the rest of each object travels in its `extra`.
const KNOWN_TOOL = new Set(["type", "function", "cache_control"]);
const KNOWN_TOOL_FUNCTION = new Set(["name", "description", "parameters"]);
const KNOWN_SYSTEM = new Set(["role", "content"]);
const KNOWN_USER = new Set(["role", "content", "name"]);
const KNOWN_TOOL_MESSAGE = new Set(["role", "tool_call_id", "content", "name"]);
const KNOWN_ASSISTANT = new Set(["role", "content", "name", "tool_calls", "reasoning_content"]);
/** An assistant message whose reasoning came from the non-standard `reasoning` field maps it too. */
const KNOWN_ASSISTANT_REASONING = new Set([...KNOWN_ASSISTANT, "reasoning"]);
const KNOWN_TOOL_CALL = new Set(["id", "type", "function", "extra_content"]);
const KNOWN_CALL_FUNCTION = new Set(["name", "arguments"]);

const EFFORTS: ReadonlySet<string> = new Set(["none", "minimal", "low", "medium", "high", "xhigh"]);

// Decoded objects are built key by key: an optional field gets a key only when it has a value, so
// a decoded request carries no `undefined` keys (tests compare it with assertEquals) without ever
// deleting keys. Lists the guards passed have no holes (a hole reads as undefined, which no guard
// accepts, and zod's copies have none); `messages` is walked with an index loop, so a hole there is
// refused like any other bad message, as it was when zod copied the list.

/** Decodes a chat-completions request body; throws GatewayError 400 naming the failing field. */
export function decodeChatRequest(body: unknown): NeutralRequest {
  if (!isRecord(body)) throw invalidAt([], "must be a JSON object");
  const top = isPlainRequest(body) ? body : parseAt(requestSchema, body);
  const system: TextPart[] = [];
  const messages: Message[] = [];
  for (let i = 0; i < top.messages.length; i++) decodeMessage(top.messages[i], i, system, messages);

  let extraFields = unknownFields(body, KNOWN_TOP);
  const toolChoice = decodeToolChoice(top.tool_choice);
  // Shapes the neutral model has no word for (allowed_tools, custom) reach a same-format upstream as is.
  if (toolChoice === undefined && isRecord(top.tool_choice)) {
    (extraFields ??= {}).tool_choice = top.tool_choice;
  }
  const reasoning = decodeReasoning(top.reasoning_effort);
  // Unknown effort values stay verbatim for a same-format upstream.
  if (reasoning === undefined && typeof top.reasoning_effort === "string") {
    (extraFields ??= {}).reasoning_effort = top.reasoning_effort;
  }
  const tools = top.tools ? top.tools.map(decodeTool) : [];
  const request: Mutable<NeutralRequest> = {
    model: top.model,
    system,
    messages,
    tools,
    params: decodeParams(top),
    stream: top.stream === true,
    source: "chat_completions",
  };
  if (toolChoice !== undefined) request.toolChoice = toolChoice;
  if (reasoning !== undefined) request.reasoning = reasoning;
  return withChatExtra(request, extraFields);
}

function decodeParams(top: z.infer<typeof requestSchema>): GenerationParams {
  const params: Mutable<GenerationParams> = {};
  const maxTokens = top.max_completion_tokens ?? top.max_tokens;
  if (maxTokens != null) params.maxTokens = maxTokens;
  if (top.temperature != null) params.temperature = top.temperature;
  if (top.top_p != null) params.topP = top.top_p;
  if (top.stop != null) params.stop = typeof top.stop === "string" ? [top.stop] : top.stop;
  if (top.seed != null) params.seed = top.seed;
  if (top.presence_penalty != null) params.presencePenalty = top.presence_penalty;
  if (top.frequency_penalty != null) params.frequencyPenalty = top.frequency_penalty;
  return params;
}

/** The neutral intent, or undefined for none or for a value the neutral model has no level for. */
function decodeReasoning(effort: string | null | undefined): ReasoningIntent | undefined {
  if (effort === undefined || effort === null) return undefined;
  // DeepSeek's "max" is the top level.
  if (effort === "max") return { effort: "xhigh" };
  if (EFFORTS.has(effort)) return { effort: effort as ReasoningEffort };
  return undefined;
}

/** The neutral choice; undefined for none or for an object of a type the neutral model lacks. */
function decodeToolChoice(
  choice: string | Record<string, unknown> | null | undefined,
): ToolChoice | undefined {
  if (choice === undefined || choice === null) return undefined;
  if (typeof choice === "string") {
    if (choice === "auto" || choice === "none" || choice === "required") return { type: choice };
    throw invalidRequest(
      `tool_choice: unknown value ${quoteValue(choice)} (expected auto, none, required or an object)`,
    );
  }
  if (choice.type === "function") {
    const fn = choice.function;
    if (!isRecord(fn) || typeof fn.name !== "string" || fn.name === "") {
      throw invalidRequest("tool_choice.function.name: is required for a function tool choice");
    }
    return { type: "tool", name: fn.name };
  }
  return undefined;
}

function decodeTool(tool: z.infer<typeof toolSchema>, index: number): ToolDefinition {
  if (tool.type !== undefined && tool.type !== "function") {
    throw invalidRequest(
      `tools[${index}].type: unsupported tool type ${
        quoteValue(tool.type)
      } (only "function" tools are supported)`,
    );
  }
  const fn = tool.function;
  if (!fn) throw invalidRequest(`tools[${index}].function: is required`);
  let fields = unknownFields(tool, KNOWN_TOOL);
  const fnExtra = unknownFields(fn, KNOWN_TOOL_FUNCTION);
  if (fnExtra) (fields ??= {}).function = fnExtra;
  const cacheControl = decodeCacheControl(tool.cache_control);
  if (tool.cache_control !== undefined && !cacheControl) (fields ??= {}).cache_control = tool.cache_control;
  const parameters = fn.parameters ?? { type: "object", properties: {} };
  const out: Mutable<ToolDefinition> = fn.description != null
    ? { name: fn.name, description: fn.description, parameters }
    : { name: fn.name, parameters };
  if (cacheControl) out.cacheControl = cacheControl;
  return withChatExtra(out, fields);
}

// Field paths (`messages[2].content[0]`) only ever appear in error messages, so they are built when
// an error needs one rather than for every message and part of every request.

function messagePath(message: number): PropertyKey[] {
  return ["messages", message];
}

function decodeMessage(raw: unknown, index: number, system: TextPart[], messages: Message[]): void {
  if (!isRecord(raw)) throw invalidAt(messagePath(index), "must be an object");
  const role = raw.role;
  switch (role) {
    case "system":
    case "developer": {
      const m = isPlainSystemMessage(raw) ? raw : parseAt(systemMessageSchema, raw, messagePath(index));
      return decodeSystem(m, index, system);
    }
    case "user": {
      const m = isPlainUserMessage(raw) ? raw : parseAt(userMessageSchema, raw, messagePath(index));
      const message: Mutable<Message> = { role: "user", parts: decodeContent(m.content, index, "user") };
      if (m.name !== undefined) message.name = m.name;
      messages.push(withChatExtra(message, unknownFields(m, KNOWN_USER)));
      return;
    }
    case "assistant": {
      const m = isPlainAssistantMessage(raw) ? raw : parseAt(assistantMessageSchema, raw, messagePath(index));
      messages.push(decodeAssistant(m, index));
      return;
    }
    case "tool": {
      const m = isPlainToolMessage(raw) ? raw : parseAt(toolMessageSchema, raw, messagePath(index));
      const content = decodeContent(m.content ?? "", index, "tool");
      const callId = m.tool_call_id;
      const part: ToolResultPart = typeof m.name === "string"
        ? { kind: "toolResult", callId, name: m.name, content }
        : { kind: "toolResult", callId, content };
      const message: Mutable<Message> = { role: "tool", parts: [part] };
      messages.push(withChatExtra(message, unknownFields(m, KNOWN_TOOL_MESSAGE)));
      return;
    }
    default:
      throw invalidAt(
        [...messagePath(index), "role"],
        role === undefined
          ? "is required"
          : typeof role !== "string"
          ? "must be a string"
          : `unknown role ${quoteValue(role)} (expected system, developer, user, assistant or tool)`,
      );
  }
}

function decodeSystem(m: z.infer<typeof systemMessageSchema>, index: number, system: TextPart[]): void {
  let fields = unknownFields(m, KNOWN_SYSTEM);
  // The role is kept so a same-format upstream gets `developer` back where the client used it.
  if (m.role === "developer") (fields ??= {}).role = "developer";
  const extra = chatExtra(fields);
  for (const part of decodeContent(m.content, index, "system")) {
    if (part.kind !== "text") continue;
    // Each part carries the message's leftovers (a system prompt has no messages to hang them on).
    const text: Mutable<TextPart> = { kind: "text", text: part.text };
    if (part.cacheControl) text.cacheControl = part.cacheControl;
    if (extra) text.extra = extra;
    system.push(text);
  }
}

function decodeAssistant(m: z.infer<typeof assistantMessageSchema>, index: number): Message {
  const parts: Part[] = [];
  let known = KNOWN_ASSISTANT;
  let reasoning = m.reasoning_content ?? undefined;
  if (reasoning === undefined && typeof m.reasoning === "string") {
    reasoning = m.reasoning;
    known = KNOWN_ASSISTANT_REASONING;
  }
  if (reasoning) parts.push({ kind: "reasoning", text: reasoning });
  if (m.content !== undefined && m.content !== null) {
    for (const part of decodeContent(m.content, index, "assistant")) {
      if (!(part.kind === "text" && part.text === "" && !part.extra)) parts.push(part);
    }
  }
  const calls = m.tool_calls;
  if (calls) { for (let i = 0; i < calls.length; i++) parts.push(decodeToolCall(calls[i], index, i)); }
  const message: Mutable<Message> = { role: "assistant", parts };
  if (m.name !== undefined) message.name = m.name;
  return withChatExtra(message, unknownFields(m, known));
}

function decodeToolCall(call: z.infer<typeof toolCallSchema>, message: number, index: number): ToolCallPart {
  if (call.type !== undefined && call.type !== "function") {
    throw invalidAt(
      [...messagePath(message), "tool_calls", index, "type"],
      `unsupported tool call type ${quoteValue(call.type)}`,
    );
  }
  const args = call.function.arguments;
  let fields = unknownFields(call, KNOWN_TOOL_CALL);
  const fnExtra = unknownFields(call.function, KNOWN_CALL_FUNCTION);
  if (fnExtra) (fields ??= {}).function = fnExtra;
  const signature = googleSignature(call.extra_content);
  if (call.extra_content !== undefined && signature === undefined) {
    (fields ??= {}).extra_content = call.extra_content;
  }
  const part: Mutable<ToolCallPart> = {
    kind: "toolCall",
    id: call.id,
    name: call.function.name,
    arguments: typeof args === "string" ? args : args ? JSON.stringify(args) : "",
  };
  if (signature !== undefined) {
    part.signature = signature;
    part.family = "google";
  }
  return withChatExtra(part, fields);
}
