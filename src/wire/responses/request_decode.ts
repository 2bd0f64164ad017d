import type {
  ImagePart,
  NeutralRequest,
  Part,
  ReasoningIntent,
  TextPart,
  ToolChoice,
  ToolDefinition,
} from "../../model/mod.ts";
import { splitExtra } from "../../model/mod.ts";
import type { DecodeContext } from "../codec.ts";
import { SUMMARY_HEADING, summaryOfCompaction } from "./compaction.ts";
import { invalidAt, isRecord, parseAt, quoteValue } from "../shared/mod.ts";
import { always, Conversation } from "./conversation.ts";
import { decodeContentPart } from "./parts_decode.ts";
import { unwrapForeignReasoning } from "./foreign_reasoning.ts";
import {
  FunctionCallItemSchema,
  FunctionCallOutputItemSchema,
  FunctionToolChoiceSchema,
  FunctionToolSchema,
  MessageItemSchema,
  ReasoningItemSchema,
  RequestBodySchema,
} from "./schema.ts";

const FORMAT = "responses";

// `reasoning` is mapped but also kept whole in extra, so `summary` and friends survive a same-format trip.
const MAPPED_FIELDS = new Set([
  "model",
  "input",
  "instructions",
  "tools",
  "tool_choice",
  "max_output_tokens",
  "temperature",
  "top_p",
  "stream",
]);

const onlyReasoning = (parts: readonly Part[]) => parts.every((p) => p.kind === "reasoning");

function decodeMessageItem(
  value: Record<string, unknown>,
  path: readonly PropertyKey[],
  convo: Conversation,
): void {
  const item = parseAt(MessageItemSchema, value, path);
  const extra = splitExtra(item, new Set(["type", "role", "content"]), "responses");
  const isAssistant = item.role === "assistant";
  const parts: (TextPart | ImagePart)[] = typeof item.content === "string"
    ? [{ kind: "text", text: item.content }]
    : item.content.map((part, i) => decodeContentPart(part, [...path, "content", i], isAssistant));
  switch (item.role) {
    case "system":
    case "developer":
      parts.forEach((part, i) => {
        if (part.kind !== "text") {
          throw invalidAt([...path, "content", i, "type"], `only text is supported in ${item.role} messages`);
        }
        convo.system.push(part);
      });
      return;
    case "assistant":
      convo.assistantParts(onlyReasoning, extra).push(...parts);
      return;
    case "user":
      convo.user(parts, extra);
      return;
  }
}

function decodeItem(value: unknown, index: number, convo: Conversation): void {
  const path = ["input", index];
  if (!isRecord(value)) throw invalidAt(path, "must be an object");
  const type = value.type ?? (value.role !== undefined ? "message" : undefined);
  switch (type) {
    case "message":
      return decodeMessageItem(value, path, convo);
    case "function_call": {
      const item = parseAt(FunctionCallItemSchema, value, path);
      const extra = splitExtra(item, new Set(["type", "call_id", "name", "arguments"]), "responses");
      convo.assistantParts(always).push({
        kind: "toolCall",
        id: item.call_id,
        name: item.name,
        arguments: item.arguments,
        ...(extra ? { extra } : {}),
      });
      return;
    }
    case "function_call_output": {
      const item = parseAt(FunctionCallOutputItemSchema, value, path);
      const content = typeof item.output === "string"
        ? [{ kind: "text" as const, text: item.output }]
        : item.output.map((part, i) => decodeContentPart(part, [...path, "output", i], false));
      const extra = splitExtra(item, new Set(["type", "call_id", "output"]), "responses");
      convo.toolParts().push({
        kind: "toolResult",
        callId: item.call_id,
        content,
        ...(extra ? { extra } : {}),
      });
      return;
    }
    case "reasoning": {
      const item = parseAt(ReasoningItemSchema, value, path);
      const text = (item.summary ?? []).map((s) => s.text).join("\n\n");
      const extra = splitExtra(item, new Set(["type", "encrypted_content"]), "responses");
      // Another family's signed reasoning the gateway handed this client comes back as that family's.
      const wrapped = item.encrypted_content ? unwrapForeignReasoning(item.encrypted_content) : undefined;
      // Unsigned reasoning comes back as its text, even when the client kept no summary of it.
      const { text: wrappedText, ...foreign } = wrapped ?? {};
      convo.assistantParts(onlyReasoning).push({
        kind: "reasoning",
        text: text || (wrappedText ?? ""),
        ...(wrapped ? foreign : {
          family: "openai" as const,
          ...(item.encrypted_content ? { redactedData: item.encrypted_content } : {}),
        }),
        ...(extra ? { extra } : {}),
      });
      return;
    }
    case "web_search_call":
    case "file_search_call":
    case "code_interpreter_call":
    case "image_generation_call":
    case "local_shell_call":
    case "local_shell_call_output":
    case "custom_tool_call":
    case "custom_tool_call_output":
    case "mcp_call":
    case "mcp_list_tools":
    case "mcp_approval_request":
    case "mcp_approval_response":
      convo.opaque(value);
      return;
    case "compaction": {
      // The gateway's own compaction becomes its summary again, so any upstream can continue from it;
      // an upstream's encrypted compaction only means something to that upstream, so it travels as is.
      const summary = summaryOfCompaction(value.encrypted_content);
      if (summary === null) convo.opaque(value);
      else convo.user([{ kind: "text", text: `${SUMMARY_HEADING}\n\n${summary}` }], undefined);
      return;
    }
    case "compaction_trigger":
      convo.opaque(value);
      return;
    case undefined:
      throw invalidAt([...path, "type"], "is required");
    case "item_reference":
      // The gateway's response store puts the stored item in before decoding; one left here names nothing.
      throw invalidAt(
        [...path, "id"],
        "names no stored item (send `store: true` with the response it came from)",
      );
    default:
      throw invalidAt([...path, "type"], `unknown item type ${quoteValue(type)}`);
  }
}

function decodeTools(
  tools: readonly Record<string, unknown>[],
): { defs: ToolDefinition[]; others: Record<string, unknown>[] } {
  const defs: ToolDefinition[] = [];
  const others: Record<string, unknown>[] = [];
  tools.forEach((tool, i) => {
    if (tool.type !== "function") {
      others.push(tool);
      return;
    }
    const fn = parseAt(FunctionToolSchema, tool, ["tools", i]);
    const extra = splitExtra(fn, new Set(["type", "name", "description", "parameters"]), "responses");
    defs.push({
      name: fn.name,
      ...(fn.description != null ? { description: fn.description } : {}),
      parameters: fn.parameters ?? { type: "object", properties: {} },
      ...(extra ? { extra } : {}),
    });
  });
  return { defs, others };
}

/** Maps tool_choice; forms the neutral model cannot hold (allowed_tools, hosted tools) return undefined. */
function decodeToolChoice(value: unknown): ToolChoice | undefined {
  if (value === undefined || value === null) return undefined;
  if (value === "auto" || value === "none" || value === "required") return { type: value };
  if (typeof value === "string") {
    throw invalidAt(
      ["tool_choice"],
      `must be "auto", "none", "required" or an object, not ${quoteValue(value)}`,
    );
  }
  if (!isRecord(value)) throw invalidAt(["tool_choice"], "must be a string or an object");
  if (value.type === "function") {
    return { type: "tool", name: parseAt(FunctionToolChoiceSchema, value, ["tool_choice"]).name };
  }
  return undefined;
}

/** Client body → neutral request; throws GatewayError(400, invalid_request) naming the failing path. */
export function decodeRequest(body: unknown, _ctx: DecodeContext): NeutralRequest {
  if (!isRecord(body)) throw invalidAt([], "must be a JSON object");
  const req = parseAt(RequestBodySchema, body);
  const convo = new Conversation();
  if (req.instructions) convo.system.push({ kind: "text", text: req.instructions });
  if (typeof req.input === "string") convo.user([{ kind: "text", text: req.input }], undefined);
  else req.input.forEach((item, i) => decodeItem(item, i, convo));

  const { defs, others } = decodeTools(req.tools ?? []);
  const toolChoice = decodeToolChoice(req.tool_choice);

  const fields: Record<string, unknown> = { ...splitExtra(body, MAPPED_FIELDS, FORMAT)?.fields };
  if (others.length > 0) fields.tools = others;
  if (req.tool_choice != null && toolChoice === undefined) fields.tool_choice = req.tool_choice;
  if (req.reasoning == null) delete fields.reasoning;

  const effort = req.reasoning?.effort ?? undefined;
  const summary = req.reasoning?.summary ?? undefined;
  const reasoning: ReasoningIntent | undefined = effort || summary
    ? {
      ...(effort ? { effort } : {}),
      ...(summary && summary !== "none" ? { includeThoughts: true } : {}),
    }
    : undefined;

  return {
    model: req.model,
    system: convo.system,
    messages: convo.messages,
    tools: defs,
    ...(toolChoice ? { toolChoice } : {}),
    params: {
      ...(req.max_output_tokens != null ? { maxTokens: req.max_output_tokens } : {}),
      ...(req.temperature != null ? { temperature: req.temperature } : {}),
      ...(req.top_p != null ? { topP: req.top_p } : {}),
    },
    ...(reasoning ? { reasoning } : {}),
    stream: req.stream === true,
    source: FORMAT,
    ...(Object.keys(fields).length > 0 ? { extra: { format: FORMAT, fields } } : {}),
  };
}
