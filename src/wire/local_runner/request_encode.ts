import { droppedField, extraFieldsFor, warning } from "../../model/mod.ts";
import type { GatewayWarning, Message, NeutralRequest, Part, ToolResultPart } from "../../model/mod.ts";
import type { EncodedRequest } from "../codec.ts";
import { argumentsLost, argumentsObject, isRecord } from "../shared/mod.ts";
import { encodeOptions } from "./options.ts";
import { encodeThink } from "./think.ts";

const FORMAT = "local_runner";
/** /api/generate fields that /api/chat has no place for. */
const GENERATE_ONLY = new Set(["suffix", "raw", "template", "context"]);

type Json = Record<string, unknown>;

/** Joins text parts; separate blocks stay visibly separate in Ollama's single content string. */
function joinText(parts: readonly Part[]): string {
  return parts.flatMap((p) => (p.kind === "text" ? [p.text] : [])).join("\n");
}

/** Base64 data of the image parts; URL images cannot be sent (the gateway prefetches them for us). */
function imagesOf(parts: readonly Part[], where: string, warnings: GatewayWarning[]): string[] {
  const images: string[] = [];
  for (const part of parts) {
    if (part.kind !== "image") continue;
    if (part.source.type === "base64") images.push(part.source.data);
    else {
      warnings.push(
        warning(
          "dropped_part:image",
          `${where}: image by URL dropped (the local runner accepts base64 images only)`,
        ),
      );
    }
  }
  return images;
}

/** Encodes one tool result as an Ollama tool message. */
function toolMessage(
  result: ToolResultPart,
  names: ReadonlyMap<string, string>,
  where: string,
  warnings: GatewayWarning[],
) {
  const message: Json = { role: "tool", content: joinText(result.content) };
  const images = imagesOf(result.content, where, warnings);
  if (images.length > 0) message.images = images;
  const name = result.name ?? names.get(result.callId);
  if (name) message.tool_name = name;
  // Newer runners pair by id; older ones ignore the field.
  message.tool_call_id = result.callId;
  if (result.isError) {
    warnings.push(
      warning(
        "dropped_field:tool_error",
        `${where}: tool error flag cannot be expressed; sent as plain content`,
        {
          callId: result.callId,
        },
      ),
    );
  }
  return message;
}

/** The index after which assistant reasoning belongs to the turn in progress (the last user message). */
function currentTurnStart(messages: readonly Message[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role === "user" && messages[i].parts.some((p) => p.kind !== "toolResult")) return i;
  }
  return -1;
}

function encodeMessages(request: NeutralRequest, warnings: GatewayWarning[]): Json[] {
  const out: Json[] = request.system.map((part) => ({ role: "system", content: part.text }));
  const names = new Map<string, string>();
  const turnStart = currentTurnStart(request.messages);
  request.messages.forEach((message, index) => {
    const where = `messages[${index}]`;
    for (const part of message.parts) {
      if (part.kind === "toolResult") out.push(toolMessage(part, names, where, warnings));
    }
    const rest = message.parts.filter((p) => p.kind !== "toolResult");
    if (rest.length === 0 && message.parts.length > 0) return;
    const role = message.role === "tool" ? "user" : message.role;
    const encoded: Json = { role, content: joinText(rest) };
    // Runners only use thinking of the turn in progress (tool loops); older turns' thinking is noise.
    if (role === "assistant" && index > turnStart) {
      const thinking = rest.flatMap((p) => (p.kind === "reasoning" && !p.redactedData ? [p.text] : [])).join(
        "",
      );
      if (thinking) encoded.thinking = thinking;
    }
    const images = imagesOf(rest, where, warnings);
    if (images.length > 0) encoded.images = images;
    const calls = rest.flatMap((p) => (p.kind === "toolCall" ? [p] : []));
    if (calls.length > 0) {
      encoded.tool_calls = calls.map((call) => {
        names.set(call.id, call.name);
        if (argumentsLost(call.arguments)) {
          warnings.push(warning(
            "changed_field:tool_arguments",
            `tool call "${call.name}" had arguments that are not a JSON object; sent as {}`,
            { tool: call.name },
          ));
        }
        return { id: call.id, function: { name: call.name, arguments: argumentsObject(call.arguments) } };
      });
    }
    Object.assign(encoded, extraFieldsFor(message.extra, FORMAT));
    out.push(encoded);
  });
  return out;
}

function encodeTools(request: NeutralRequest, warnings: GatewayWarning[]): Json[] | undefined {
  if (request.tools.length === 0) return undefined;
  const choice = request.toolChoice;
  if (choice?.type === "none") return undefined;
  if (choice?.type === "required" || choice?.type === "tool") {
    warnings.push(warning(
      "dropped_field:tool_choice",
      `toolChoice: "${choice.type}" cannot be expressed by the local runner; the model decides`,
    ));
  }
  return request.tools.map((tool) => ({
    type: "function",
    function: {
      name: tool.name,
      ...(tool.description ? { description: tool.description } : {}),
      parameters: tool.parameters,
    },
  }));
}

/** Neutral request → an Ollama /api/chat body for `upstreamModel` (always chat, even for generate clients). */
export function encodeRequest(request: NeutralRequest, upstreamModel: string): EncodedRequest {
  const warnings: GatewayWarning[] = [];
  const own = extraFieldsFor(request.extra, FORMAT);
  const keptOptions = isRecord(own.options) ? own.options : {};
  const body: Json = { model: upstreamModel, messages: encodeMessages(request, warnings) };
  const tools = encodeTools(request, warnings);
  if (tools) body.tools = tools;
  body.stream = request.stream;
  const options = encodeOptions(request.params, keptOptions);
  if (options) body.options = options;
  const think = encodeThink(request.reasoning);
  if (think !== undefined) body.think = think;
  for (const [key, value] of Object.entries(own)) {
    if (key === "options" || key in body) continue;
    if (GENERATE_ONLY.has(key)) {
      warnings.push(droppedField(key, `${key}: dropped (the chat endpoint has no such field)`));
    } else body[key] = value;
  }
  return { body, warnings };
}
