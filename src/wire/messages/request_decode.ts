import { splitExtra } from "../../model/mod.ts";
import type {
  Extra,
  GenerationParams,
  Message,
  NeutralRequest,
  Part,
  TextPart,
  ToolChoice,
  ToolDefinition,
} from "../../model/mod.ts";
import type { DecodeContext } from "../codec.ts";
import { invalidAt, isRecord, parseAt, quoteValue } from "../shared/mod.ts";
import { cacheControlOf, decodeBlock, decodeTextBlock } from "./blocks_decode.ts";
import { customToolSchema, requestSchema } from "./schema.ts";
import type { BlockHead, MessageBody, RequestBody } from "./schema.ts";
import { decodeThinking } from "./thinking.ts";

const FORMAT = "messages";
const KNOWN_KEYS = new Set([
  "model",
  "max_tokens",
  "messages",
  "system",
  "tools",
  "tool_choice",
  "temperature",
  "top_p",
  "top_k",
  "stop_sequences",
  "thinking",
  "output_config",
  "stream",
]);
const MESSAGE_KEYS = new Set(["role", "content"]);
const TOOL_KEYS = new Set(["name", "description", "input_schema", "cache_control"]);
const TOOL_CHOICE_KEYS = new Set(["type", "name"]);

/**
 * Keys under which request extra carries messages-only data that sits inside mapped fields; the
 * encoder of this format puts each back where it came from instead of spreading it at the top.
 */
export const EXTRA_KEYS = {
  /** Server tools (`web_search_…`, `bash_…`, MCP toolsets), kept raw. */
  serverTools: "tools",
  /** Unmapped `tool_choice` fields such as `disable_parallel_tool_use`. */
  toolChoice: "tool_choice",
  /** The client's `thinking` object, replayed while it still matches the reasoning intent. */
  thinking: "thinking",
} as const;

function decodeSystem(system: RequestBody["system"]): TextPart[] {
  if (system === undefined || system === null) return [];
  if (typeof system === "string") return system === "" ? [] : [{ kind: "text", text: system }];
  return system.map((block, i) => {
    if (block.type !== "text") {
      throw invalidAt(["system", i, "type"], `system blocks must be text, got ${quoteValue(block.type)}`);
    }
    return decodeTextBlock(block, ["system", i]);
  });
}

function contentParts(content: MessageBody["content"], path: readonly PropertyKey[]): Part[] {
  if (typeof content === "string") return [{ kind: "text", text: content }];
  return content.map((block: BlockHead, j) => decodeBlock(block, [...path, "content", j]));
}

function withExtra(message: Message, extra: Extra | undefined): Message {
  return extra ? { ...message, extra } : message;
}

/**
 * Decodes `messages`. Tool results leave their user message for a `tool` message placed before the
 * rest of that message, which is where the neutral model (and every other format) expects them.
 * System-role messages (some clients send them) are hoisted into the system text.
 */
function decodeMessages(messages: readonly MessageBody[], system: TextPart[]): Message[] {
  const out: Message[] = [];
  messages.forEach((message, i) => {
    const path = ["messages", i];
    const extra = splitExtra(message, MESSAGE_KEYS, FORMAT);
    const parts = contentParts(message.content, path);
    switch (message.role) {
      case "system":
        parts.forEach((part, j) => {
          if (part.kind !== "text") {
            throw invalidAt([...path, "content", j], "system messages may only contain text");
          }
          if (part.text !== "") system.push(part);
        });
        return;
      case "assistant": {
        const misplaced = parts.findIndex((part) => part.kind === "toolResult");
        if (misplaced !== -1) {
          throw invalidAt([...path, "content", misplaced], "tool_result blocks belong in user messages");
        }
        out.push(withExtra({ role: "assistant", parts }, extra));
        return;
      }
      case "user": {
        const results = parts.filter((part) => part.kind === "toolResult");
        const rest = parts.filter((part) => part.kind !== "toolResult");
        if (results.length > 0) out.push(withExtra({ role: "tool", parts: results }, extra));
        if (rest.length > 0 || results.length === 0) {
          out.push(withExtra({ role: "user", parts: rest }, extra));
        }
        return;
      }
    }
  });
  return out;
}

function decodeTools(tools: RequestBody["tools"]): { tools: ToolDefinition[]; server: unknown[] } {
  const defs: ToolDefinition[] = [];
  const server: unknown[] = [];
  (tools ?? []).forEach((tool, i) => {
    if (tool.type && tool.type !== "custom") {
      // Server tools run on the provider; no other format can express them, so they travel raw.
      server.push(tool);
      return;
    }
    const custom = parseAt(customToolSchema, tool, ["tools", i]);
    const cacheControl = cacheControlOf(custom.cache_control);
    const extra = splitExtra(custom, TOOL_KEYS, FORMAT);
    defs.push({
      name: custom.name,
      ...(custom.description ? { description: custom.description } : {}),
      parameters: custom.input_schema,
      ...(cacheControl ? { cacheControl } : {}),
      ...(extra ? { extra } : {}),
    });
  });
  return { tools: defs, server };
}

function decodeToolChoice(choice: RequestBody["tool_choice"]): ToolChoice | undefined {
  switch (choice?.type) {
    case undefined:
      return undefined;
    case "auto":
      return { type: "auto" };
    case "any":
      return { type: "required" };
    case "none":
      return { type: "none" };
    case "tool":
      return { type: "tool", name: choice.name ?? "" };
  }
}

function decodeParams(body: RequestBody): GenerationParams {
  return {
    maxTokens: body.max_tokens,
    ...(typeof body.temperature === "number" ? { temperature: body.temperature } : {}),
    ...(typeof body.top_p === "number" ? { topP: body.top_p } : {}),
    ...(typeof body.top_k === "number" ? { topK: body.top_k } : {}),
    ...(body.stop_sequences && body.stop_sequences.length > 0 ? { stop: body.stop_sequences } : {}),
  };
}

function requestExtra(body: RequestBody, server: readonly unknown[]): Extra | undefined {
  const fields: Record<string, unknown> = { ...splitExtra(body, KNOWN_KEYS, FORMAT)?.fields };
  if (server.length > 0) fields[EXTRA_KEYS.serverTools] = server;
  const choice = body.tool_choice ? splitExtra(body.tool_choice, TOOL_CHOICE_KEYS, FORMAT) : undefined;
  if (choice) fields[EXTRA_KEYS.toolChoice] = choice.fields;
  if (body.thinking) fields[EXTRA_KEYS.thinking] = body.thinking;
  // output_config also holds structured-output settings; it is only read for effort, so it travels whole.
  if (body.output_config) fields.output_config = body.output_config;
  return Object.keys(fields).length > 0 ? { format: FORMAT, fields } : undefined;
}

/** Decodes a POST /v1/messages body to the neutral request; problems are 400s naming the field. */
export function decodeRequest(body: unknown, _ctx: DecodeContext): NeutralRequest {
  if (!isRecord(body)) throw invalidAt([], "must be a JSON object");
  const parsed = parseAt(requestSchema, body, []);
  const system = decodeSystem(parsed.system);
  const messages = decodeMessages(parsed.messages, system);
  const { tools, server } = decodeTools(parsed.tools);
  const toolChoice = decodeToolChoice(parsed.tool_choice);
  const reasoning = decodeThinking(parsed.thinking, parsed.output_config);
  const extra = requestExtra(parsed, server);
  return {
    model: parsed.model,
    system,
    messages,
    tools,
    ...(toolChoice ? { toolChoice } : {}),
    params: decodeParams(parsed),
    ...(reasoning ? { reasoning } : {}),
    stream: parsed.stream ?? false,
    source: FORMAT,
    ...(extra ? { extra } : {}),
  };
}
