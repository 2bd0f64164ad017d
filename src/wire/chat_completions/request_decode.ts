import type {
  CacheControl,
  GenerationParams,
  ImagePart,
  ImageSource,
  Message,
  NeutralRequest,
  Part,
  ReasoningEffort,
  ReasoningIntent,
  TextPart,
  ToolCallPart,
  ToolChoice,
  ToolDefinition,
} from "../../model/mod.ts";
import { invalidRequest } from "../../model/mod.ts";
import { isRecord } from "../shared/mod.ts";
import { chatExtra, unknownFields } from "./extra_fields.ts";
import { googleSignature } from "./google_signature.ts";
import {
  assistantMessageSchema,
  imagePartSchema,
  parseAt,
  requestSchema,
  systemMessageSchema,
  textPartSchema,
  toolCallSchema,
  toolMessageSchema,
  toolSchema,
  userMessageSchema,
} from "./schema.ts";
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

const EFFORTS: ReadonlySet<string> = new Set(["none", "minimal", "low", "medium", "high", "xhigh"]);

type RawContent = string | readonly { readonly type: string; readonly [key: string]: unknown }[];

/** Where a content list appears; decides which part types it may hold. */
type ContentRole = "system" | "user" | "assistant" | "tool";

/** Decodes a chat-completions request body; throws GatewayError 400 naming the failing field. */
export function decodeChatRequest(body: unknown): NeutralRequest {
  if (!isRecord(body)) throw invalidRequest("body: the request body must be a JSON object");
  const top = parseAt(requestSchema, body, "");
  const system: TextPart[] = [];
  const messages: Message[] = [];
  top.messages.forEach((raw, i) => decodeMessage(raw, `messages[${i}]`, system, messages));

  const extraFields = unknownFields(body, KNOWN_TOP) ?? {};
  const toolChoice = decodeToolChoice(top.tool_choice, extraFields);
  const reasoning = decodeReasoning(top.reasoning_effort, extraFields);
  const request: NeutralRequest = {
    model: top.model,
    system,
    messages,
    tools: (top.tools ?? []).map((tool, i) => decodeTool(tool, `tools[${i}]`)),
    params: decodeParams(top),
    stream: top.stream === true,
    source: "chat_completions",
  };
  return compact({
    ...request,
    toolChoice,
    reasoning,
    extra: chatExtra(Object.keys(extraFields).length > 0 ? extraFields : undefined),
  });
}

function decodeParams(top: z.infer<typeof requestSchema>): GenerationParams {
  const stop = typeof top.stop === "string" ? [top.stop] : top.stop ?? undefined;
  return compact({
    maxTokens: top.max_completion_tokens ?? top.max_tokens ?? undefined,
    temperature: top.temperature ?? undefined,
    topP: top.top_p ?? undefined,
    stop,
    seed: top.seed ?? undefined,
    presencePenalty: top.presence_penalty ?? undefined,
    frequencyPenalty: top.frequency_penalty ?? undefined,
  });
}

function decodeReasoning(
  effort: string | null | undefined,
  extra: Record<string, unknown>,
): ReasoningIntent | undefined {
  if (effort === undefined || effort === null) return undefined;
  // DeepSeek's "max" is the top level; other unknown values stay verbatim for a same-format upstream.
  if (effort === "max") return { effort: "xhigh" };
  if (EFFORTS.has(effort)) return { effort: effort as ReasoningEffort };
  extra.reasoning_effort = effort;
  return undefined;
}

function decodeToolChoice(
  choice: string | Record<string, unknown> | null | undefined,
  extra: Record<string, unknown>,
): ToolChoice | undefined {
  if (choice === undefined || choice === null) return undefined;
  if (typeof choice === "string") {
    if (choice === "auto" || choice === "none" || choice === "required") return { type: choice };
    throw invalidRequest(
      `tool_choice: unknown value "${choice}" (expected auto, none, required or an object)`,
    );
  }
  if (choice.type === "function") {
    const fn = choice.function;
    if (!isRecord(fn) || typeof fn.name !== "string" || fn.name === "") {
      throw invalidRequest("tool_choice.function.name: is required for a function tool choice");
    }
    return { type: "tool", name: fn.name };
  }
  // Shapes the neutral model has no word for (allowed_tools, custom) reach a same-format upstream as is.
  extra.tool_choice = choice;
  return undefined;
}

function decodeTool(tool: z.infer<typeof toolSchema>, path: string): ToolDefinition {
  if (tool.type !== undefined && tool.type !== "function") {
    throw invalidRequest(
      `${path}.type: unsupported tool type "${tool.type}" (only "function" tools are supported)`,
    );
  }
  const fn = tool.function;
  if (!fn) throw invalidRequest(`${path}.function: is required`);
  const toolExtra = unknownFields(tool, new Set(["type", "function", "cache_control"])) ?? {};
  const fnExtra = unknownFields(fn, new Set(["name", "description", "parameters"]));
  if (fnExtra) toolExtra.function = fnExtra;
  const cacheControl = decodeCacheControl(tool.cache_control);
  if (tool.cache_control !== undefined && !cacheControl) toolExtra.cache_control = tool.cache_control;
  return compact({
    name: fn.name,
    description: fn.description ?? undefined,
    parameters: fn.parameters ?? { type: "object", properties: {} },
    cacheControl,
    extra: chatExtra(Object.keys(toolExtra).length > 0 ? toolExtra : undefined),
  });
}

function decodeMessage(raw: unknown, path: string, system: TextPart[], messages: Message[]): void {
  if (!isRecord(raw)) throw invalidRequest(`${path}: must be an object`);
  const role = raw.role;
  switch (role) {
    case "system":
    case "developer":
      return decodeSystem(parseAt(systemMessageSchema, raw, path), path, system);
    case "user": {
      const m = parseAt(userMessageSchema, raw, path);
      messages.push(compact({
        role: "user" as const,
        parts: decodeContent(m.content, `${path}.content`, "user"),
        name: m.name,
        extra: chatExtra(unknownFields(m, new Set(["role", "content", "name"]))),
      }));
      return;
    }
    case "assistant":
      messages.push(decodeAssistant(parseAt(assistantMessageSchema, raw, path), path));
      return;
    case "tool": {
      const m = parseAt(toolMessageSchema, raw, path);
      const content = decodeContent(m.content ?? "", `${path}.content`, "tool") as (TextPart | ImagePart)[];
      const name = typeof m.name === "string" ? m.name : undefined;
      messages.push(compact({
        role: "tool" as const,
        parts: [compact({ kind: "toolResult" as const, callId: m.tool_call_id, name, content })],
        extra: chatExtra(unknownFields(m, new Set(["role", "tool_call_id", "content", "name"]))),
      }));
      return;
    }
    default:
      if (typeof role !== "string") throw invalidRequest(`${path}.role: is required and must be a string`);
      throw invalidRequest(
        `${path}.role: unknown role "${role}" (expected system, developer, user, assistant or tool)`,
      );
  }
}

function decodeSystem(m: z.infer<typeof systemMessageSchema>, path: string, system: TextPart[]): void {
  const fields = unknownFields(m, new Set(["role", "content"])) ?? {};
  // The role is kept so a same-format upstream gets `developer` back where the client used it.
  if (m.role === "developer") fields.role = "developer";
  const extra = chatExtra(Object.keys(fields).length > 0 ? fields : undefined);
  for (const part of decodeContent(m.content, `${path}.content`, "system")) {
    if (part.kind === "text") {
      system.push(
        compact({ kind: "text" as const, text: part.text, cacheControl: part.cacheControl, extra }),
      );
    }
  }
}

function decodeAssistant(m: z.infer<typeof assistantMessageSchema>, path: string): Message {
  const parts: Part[] = [];
  const known = new Set(["role", "content", "name", "tool_calls", "reasoning_content"]);
  let reasoning = m.reasoning_content ?? undefined;
  if (reasoning === undefined && typeof m.reasoning === "string") {
    reasoning = m.reasoning;
    known.add("reasoning");
  }
  if (reasoning) parts.push({ kind: "reasoning", text: reasoning });
  if (m.content !== undefined && m.content !== null) {
    for (const part of decodeContent(m.content, `${path}.content`, "assistant")) {
      if (!(part.kind === "text" && part.text === "" && !part.extra)) parts.push(part);
    }
  }
  (m.tool_calls ?? []).forEach((call, i) => parts.push(decodeToolCall(call, `${path}.tool_calls[${i}]`)));
  return compact({
    role: "assistant" as const,
    parts,
    name: m.name,
    extra: chatExtra(unknownFields(m, known)),
  });
}

function decodeToolCall(call: z.infer<typeof toolCallSchema>, path: string): ToolCallPart {
  if (call.type !== undefined && call.type !== "function") {
    throw invalidRequest(`${path}.type: unsupported tool call type "${call.type}"`);
  }
  const args = call.function.arguments;
  const fields = unknownFields(call, new Set(["id", "type", "function", "extra_content"])) ?? {};
  const fnExtra = unknownFields(call.function, new Set(["name", "arguments"]));
  if (fnExtra) fields.function = fnExtra;
  const signature = googleSignature(call.extra_content);
  if (call.extra_content !== undefined && signature === undefined) fields.extra_content = call.extra_content;
  return compact({
    kind: "toolCall" as const,
    id: call.id,
    name: call.function.name,
    arguments: typeof args === "string" ? args : args ? JSON.stringify(args) : "",
    signature,
    family: signature !== undefined ? "google" as const : undefined,
    extra: chatExtra(Object.keys(fields).length > 0 ? fields : undefined),
  });
}

function decodeContent(content: RawContent, path: string, role: ContentRole): (TextPart | ImagePart)[] {
  if (typeof content === "string") return [{ kind: "text", text: content }];
  return content.map((part, i) => decodeContentPart(part, `${path}[${i}]`, role));
}

function decodeContentPart(
  part: { readonly type: string; readonly [key: string]: unknown },
  path: string,
  role: ContentRole,
): TextPart | ImagePart {
  switch (part.type) {
    case "text": {
      const p = parseAt(textPartSchema, part, path);
      return textPart(p.text, p, new Set(["type", "text"]));
    }
    case "refusal":
      if (role !== "assistant" || typeof part.refusal !== "string") break;
      return textPart(part.refusal, part, new Set(["type", "refusal"]));
    case "image_url":
      if (role === "system" || role === "assistant") {
        throw invalidRequest(`${path}.type: image parts are not allowed in ${role} messages`);
      }
      return decodeImage(parseAt(imagePartSchema, part, path));
    case "input_audio":
    case "file":
      throw invalidRequest(`${path}.type: content part type "${part.type}" is not supported by this gateway`);
  }
  throw invalidRequest(`${path}.type: unknown content part type "${part.type}"`);
}

function textPart(text: string, raw: Readonly<Record<string, unknown>>, known: Set<string>): TextPart {
  known.add("cache_control");
  const fields = unknownFields(raw, known) ?? {};
  const cacheControl = decodeCacheControl(raw.cache_control);
  if (raw.cache_control !== undefined && !cacheControl) fields.cache_control = raw.cache_control;
  return compact({
    kind: "text" as const,
    text,
    cacheControl,
    extra: chatExtra(Object.keys(fields).length > 0 ? fields : undefined),
  });
}

function decodeImage(p: z.infer<typeof imagePartSchema>): ImagePart {
  const image = typeof p.image_url === "string" ? { url: p.image_url } : p.image_url;
  const fields = unknownFields(p, new Set(["type", "image_url", "cache_control"])) ?? {};
  const inner = unknownFields(image, new Set(["url", "detail"]));
  if (inner) fields.image_url = inner;
  const cacheControl = decodeCacheControl(p.cache_control);
  if (p.cache_control !== undefined && !cacheControl) fields.cache_control = p.cache_control;
  return compact({
    kind: "image" as const,
    source: imageSource(image.url),
    detail: typeof image.detail === "string" ? image.detail : undefined,
    cacheControl,
    extra: chatExtra(Object.keys(fields).length > 0 ? fields : undefined),
  });
}

/** A `data:<type>;base64,<data>` URL becomes an inline image; anything else stays a URL. */
export function imageSource(url: string): ImageSource {
  if (url.startsWith("data:")) {
    const comma = url.indexOf(",");
    const header = comma === -1 ? "" : url.slice(5, comma);
    if (header.endsWith(";base64")) {
      const mediaType = header.split(";")[0] || "application/octet-stream";
      return { type: "base64", mediaType, data: url.slice(comma + 1) };
    }
  }
  return { type: "url", url };
}

function decodeCacheControl(value: unknown): CacheControl | undefined {
  if (!isRecord(value) || value.type !== "ephemeral") return undefined;
  return typeof value.ttl === "string" ? { type: "ephemeral", ttl: value.ttl } : { type: "ephemeral" };
}

/** Drops keys whose value is undefined so decoded objects compare cleanly and stay small. */
function compact<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) {
    if (value[key] === undefined) delete value[key];
  }
  return value;
}
