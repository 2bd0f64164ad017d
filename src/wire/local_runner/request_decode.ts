import { invalidRequest, splitExtra } from "../../model/mod.ts";
import type {
  Extra,
  ImagePart,
  Message,
  NeutralRequest,
  Part,
  TextPart,
  ToolDefinition,
} from "../../model/mod.ts";
import type { DecodeContext } from "../codec.ts";
import { invalidAt, isRecord, parseAt, syntheticToolId } from "../shared/mod.ts";
import { imagePartFromBase64 } from "./images.ts";
import { decodeOptions } from "./options.ts";
import { chatRequestSchema, generateRequestSchema } from "./schema.ts";
import type { ChatRequestBody, GenerateRequestBody, MessageBody } from "./schema.ts";
import { decodeThink } from "./think.ts";
import { ToolPairing } from "./tool_pairing.ts";

const FORMAT = "local_runner";
const CHAT_KEYS = new Set(["model", "messages", "tools", "stream", "options", "think"]);
const GENERATE_KEYS = new Set(["model", "prompt", "system", "images", "stream", "options", "think"]);
const MESSAGE_KEYS = new Set([
  "role",
  "content",
  "thinking",
  "images",
  "tool_calls",
  "tool_name",
  "tool_call_id",
]);

/** Top-level unmapped fields plus runner-only options, tagged as local-runner extra. */
function requestExtra(
  body: Record<string, unknown>,
  known: ReadonlySet<string>,
  options: Record<string, unknown> | undefined,
): Extra | undefined {
  const extra = splitExtra(body, known, FORMAT);
  if (!options) return extra;
  return { format: FORMAT, fields: { ...extra?.fields, options } };
}

function textParts(content: string | null | undefined): TextPart[] {
  return content ? [{ kind: "text", text: content }] : [];
}

function imageParts(images: readonly string[] | null | undefined): ImagePart[] {
  return (images ?? []).map(imagePartFromBase64);
}

function toolArguments(args: Record<string, unknown> | string | null | undefined): string {
  if (args === undefined || args === null) return "{}";
  return typeof args === "string" ? args : JSON.stringify(args);
}

/** Decodes the chat `messages` array: system text is lifted out, tool results are paired with calls. */
function decodeMessages(messages: readonly MessageBody[]): { system: TextPart[]; messages: Message[] } {
  const system: TextPart[] = [];
  const out: Message[] = [];
  const pairing = new ToolPairing();
  messages.forEach((message, turn) => {
    const extra = splitExtra(message, MESSAGE_KEYS, FORMAT);
    const withExtra = (m: Message): Message => (extra ? { ...m, extra } : m);
    switch (message.role) {
      case "system":
        if (message.content) {
          system.push({ kind: "text", text: message.content, ...(extra ? { extra } : {}) });
        }
        return;
      case "user": {
        const parts = [...imageParts(message.images), ...textParts(message.content)];
        out.push(withExtra({ role: "user", parts: parts.length > 0 ? parts : [{ kind: "text", text: "" }] }));
        return;
      }
      case "assistant": {
        const parts: Part[] = [];
        if (message.thinking) parts.push({ kind: "reasoning", text: message.thinking });
        parts.push(...textParts(message.content), ...imageParts(message.images));
        (message.tool_calls ?? []).forEach((call, index) => {
          const name = call.function.name;
          const id = call.id || syntheticToolId(`m${turn}`, index, name);
          pairing.call(id, name, turn);
          parts.push({ kind: "toolCall", id, name, arguments: toolArguments(call.function.arguments) });
        });
        out.push(
          withExtra({ role: "assistant", parts: parts.length > 0 ? parts : [{ kind: "text", text: "" }] }),
        );
        return;
      }
      case "tool": {
        const givenName = message.tool_name || undefined;
        // Ollama matches results by name and order; an id no call carries is repaired, not rejected.
        const claimed = (message.tool_call_id ? pairing.answer(message.tool_call_id) : undefined) ??
          pairing.claim(givenName);
        const callId = claimed?.id || message.tool_call_id ||
          syntheticToolId(`result${turn}`, 0, givenName ?? "");
        const name = givenName ?? claimed?.name;
        const content = [...textParts(message.content), ...imageParts(message.images)];
        out.push(withExtra({
          role: "tool",
          parts: [{ kind: "toolResult", callId, ...(name ? { name } : {}), content }],
        }));
        return;
      }
    }
  });
  return { system, messages: out };
}

function decodeTools(tools: ChatRequestBody["tools"]): ToolDefinition[] {
  return (tools ?? []).map((tool) => ({
    name: tool.function.name,
    ...(tool.function.description ? { description: tool.function.description } : {}),
    parameters: tool.function.parameters ?? { type: "object", properties: {} },
  }));
}

function decodeChat(body: ChatRequestBody): NeutralRequest {
  const { system, messages } = decodeMessages(body.messages ?? []);
  const { params, rest } = decodeOptions(body.options);
  const reasoning = decodeThink(body.think);
  const extra = requestExtra(body, CHAT_KEYS, rest);
  return {
    model: body.model,
    system,
    messages,
    tools: decodeTools(body.tools),
    params,
    ...(reasoning ? { reasoning } : {}),
    // Ollama streams unless told otherwise.
    stream: body.stream ?? true,
    source: FORMAT,
    ...(extra ? { extra } : {}),
  };
}

function decodeGenerate(body: GenerateRequestBody): NeutralRequest {
  const { params, rest } = decodeOptions(body.options);
  const reasoning = decodeThink(body.think);
  const extra = requestExtra(body, GENERATE_KEYS, rest);
  const parts = [...imageParts(body.images), ...textParts(body.prompt)];
  return {
    model: body.model,
    system: textParts(body.system),
    messages: [{ role: "user", parts: parts.length > 0 ? parts : [{ kind: "text", text: "" }] }],
    tools: [],
    params,
    ...(reasoning ? { reasoning } : {}),
    stream: body.stream ?? true,
    source: FORMAT,
    ...(extra ? { extra } : {}),
  };
}

/** Decodes a POST /api/chat or /api/generate body (per `ctx.endpoint`, default chat) to the neutral request. */
export function decodeRequest(body: unknown, ctx: DecodeContext): NeutralRequest {
  if (!isRecord(body)) throw invalidAt([], "must be a JSON object");
  const endpoint = ctx.endpoint ?? "chat";
  if (endpoint === "chat") {
    return decodeChat(parseAt(chatRequestSchema, body));
  }
  if (endpoint === "generate") {
    return decodeGenerate(parseAt(generateRequestSchema, body));
  }
  throw invalidRequest(`endpoint: unknown local-runner endpoint ${JSON.stringify(endpoint)}`);
}
