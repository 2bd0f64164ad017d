import type {
  GatewayWarning,
  ImagePart,
  Message,
  NeutralRequest,
  Part,
  ReasoningEffort,
  ReasoningPart,
  TextPart,
  ToolCallPart,
  ToolResultPart,
} from "../../model/mod.ts";
import { addWarnings, extraFieldsFor, warning } from "../../model/mod.ts";
import type { EncodedRequest } from "../codec.ts";
import { isRecord, toolIdFor } from "../shared/mod.ts";
import { OPAQUE_ITEMS } from "./conversation.ts";

const FORMAT = "responses";
/** Codex and the Responses API reject longer call ids. */
const CALL_ID_MAX = 64;

type Item = Record<string, unknown>;

/** Encoding state: the items so far and what could not be expressed. */
interface Out {
  readonly items: Item[];
  readonly warnings: GatewayWarning[];
  /** Whether the upstream keeps items (`store: true`), so reasoning can be replayed by id alone. */
  readonly stored: boolean;
}

function imageUrl(part: ImagePart): string {
  return part.source.type === "url"
    ? part.source.url
    : `data:${part.source.mediaType};base64,${part.source.data}`;
}

function inputContent(part: TextPart | ImagePart): Item {
  if (part.kind === "text") {
    return { ...extraFieldsFor(part.extra, FORMAT), type: "input_text", text: part.text };
  }
  return {
    ...extraFieldsFor(part.extra, FORMAT),
    type: "input_image",
    image_url: imageUrl(part),
    detail: part.detail ?? "auto",
  };
}

function outputContent(part: TextPart): Item {
  const fields = extraFieldsFor(part.extra, FORMAT);
  if (fields.type === "refusal") return { type: "refusal", refusal: part.text };
  return { ...fields, type: "output_text", text: part.text };
}

function functionCall(part: ToolCallPart): Item {
  return {
    ...extraFieldsFor(part.extra, FORMAT),
    type: "function_call",
    call_id: toolIdFor(part.id, CALL_ID_MAX),
    name: part.name,
    arguments: part.arguments,
  };
}

function functionCallOutput(part: ToolResultPart, out: Out): Item {
  if (part.isError) {
    out.warnings.push(
      warning("dropped_field:tool_error", "tool result error flags cannot be expressed in the Responses API"),
    );
  }
  const onlyText = part.content.every((c) => c.kind === "text");
  const output = onlyText
    ? part.content.map((c) => (c.kind === "text" ? c.text : "")).join("")
    : part.content.map(inputContent);
  return {
    ...extraFieldsFor(part.extra, FORMAT),
    type: "function_call_output",
    call_id: toolIdFor(part.callId, CALL_ID_MAX),
    output,
  };
}

/** The summary list: the client's own when it still matches the text, else one summary_text. */
function summaryFor(part: ReasoningPart, extraSummary: unknown): unknown[] {
  if (Array.isArray(extraSummary)) {
    const joined = extraSummary.map((s) => (isRecord(s) && typeof s.text === "string" ? s.text : "")).join(
      "\n\n",
    );
    if (joined === part.text) return extraSummary;
  }
  return part.text === "" ? [] : [{ type: "summary_text", text: part.text }];
}

function reasoningItem(part: ReasoningPart, out: Out): Item | undefined {
  if (part.family !== "openai") {
    const family = part.family ?? "unknown";
    out.warnings.push(
      warning("dropped_part:reasoning", `reasoning from provider family "${family}" dropped`, { family }),
    );
    return undefined;
  }
  const fields = extraFieldsFor(part.extra, FORMAT);
  const encrypted = part.redactedData ?? part.signature;
  // Without encrypted content the upstream can only find the item by id, which needs store: true.
  if (!encrypted && !(out.stored && typeof fields.id === "string")) {
    out.warnings.push(
      warning(
        "dropped_part:reasoning",
        "reasoning without encrypted_content dropped (items are not stored upstream)",
      ),
    );
    return undefined;
  }
  return {
    ...fields,
    type: "reasoning",
    summary: summaryFor(part, fields.summary),
    ...(encrypted ? { encrypted_content: encrypted } : {}),
  };
}

/** Items kept verbatim by the decoder (hosted / custom tool calls), with the part index they preceded. */
function opaqueItems(kept: unknown): { at: number; item: Item }[] {
  if (!Array.isArray(kept)) return [];
  return kept.flatMap((k) =>
    isRecord(k) && typeof k.at === "number" && isRecord(k.item) ? [{ at: k.at, item: k.item }] : []
  );
}

/** Turns one neutral message into items in part order; runs of content parts share one message item. */
function encodeMessage(message: Message, out: Out): void {
  const role = message.role === "assistant" ? "assistant" : "user";
  const { [OPAQUE_ITEMS]: kept, ...messageFields } = extraFieldsFor(message.extra, FORMAT);
  const opaque = opaqueItems(kept);
  let content: Item[] | null = null;
  let messageExtraUsed = false;
  const flush = () => {
    if (!content) return;
    const fields = messageExtraUsed ? {} : messageFields;
    messageExtraUsed = true;
    out.items.push({ ...fields, type: "message", role, content });
    content = null;
  };
  const push = (item: Item) => {
    flush();
    out.items.push(item);
  };
  const pushOpaque = (upTo: number) => {
    while (opaque.length > 0 && opaque[0].at <= upTo) push(opaque.shift()!.item);
  };
  message.parts.forEach((part, i) => {
    pushOpaque(i);
    encodePart(part, role, out, push, () => (content ??= []));
  });
  pushOpaque(Number.POSITIVE_INFINITY);
  flush();
}

function encodePart(
  part: Part,
  role: "user" | "assistant",
  out: Out,
  push: (item: Item) => void,
  content: () => Item[],
): void {
  switch (part.kind) {
    case "text":
      content().push(role === "assistant" ? outputContent(part) : inputContent(part));
      return;
    case "image":
      if (role === "assistant") {
        out.warnings.push(
          warning("dropped_part:image", "images in assistant messages cannot be expressed; dropped"),
        );
      } else content().push(inputContent(part));
      return;
    case "toolCall":
      push(functionCall(part));
      return;
    case "toolResult":
      push(functionCallOutput(part, out));
      return;
    case "reasoning": {
      const item = reasoningItem(part, out);
      if (item) push(item);
      return;
    }
  }
}

/** Maps a thinking budget onto the effort scale the Responses API understands. */
function effortFromBudget(budget: number): ReasoningEffort {
  if (budget <= 0) return "minimal";
  if (budget <= 2048) return "low";
  if (budget <= 8192) return "medium";
  return "high";
}

function reasoningField(request: NeutralRequest, extraReasoning: unknown): Item | undefined {
  const intent = request.reasoning;
  if (!intent) return undefined;
  const base = isRecord(extraReasoning) ? { ...extraReasoning } : {};
  const effort = intent.effort ??
    (intent.budgetTokens !== undefined ? effortFromBudget(intent.budgetTokens) : undefined);
  if (effort) base.effort = effort;
  else delete base.effort;
  if (intent.includeThoughts && typeof base.summary !== "string") base.summary = "auto";
  if (intent.includeThoughts === false) delete base.summary;
  return Object.keys(base).length > 0 ? base : undefined;
}

/** The `include` value that makes an unstored Responses upstream return reasoning it can be sent back. */
const ENCRYPTED_REASONING = "reasoning.encrypted_content";

/** Neutral → Responses request body for `upstreamModel`. */
export function encodeRequest(request: NeutralRequest, upstreamModel: string): EncodedRequest {
  const extra = extraFieldsFor(request.extra, FORMAT);
  const { tools: extraTools, tool_choice: extraToolChoice, reasoning: extraReasoning, ...rest } = extra;
  const out: Out = { items: [], warnings: [], stored: rest.store === true };
  for (const message of request.messages) encodeMessage(message, out);

  const body: Record<string, unknown> = { ...rest, model: upstreamModel };
  if (request.system.length > 0) body.instructions = request.system.map((p) => p.text).join("\n\n");
  body.input = out.items;

  const tools: unknown[] = request.tools.map((tool) => ({
    ...extraFieldsFor(tool.extra, FORMAT),
    type: "function",
    name: tool.name,
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    parameters: tool.parameters,
  }));
  if (Array.isArray(extraTools)) tools.push(...extraTools);
  if (tools.length > 0) {
    body.tools = tools;
    const choice = request.toolChoice;
    if (choice) {
      body.tool_choice = choice.type === "tool" ? { type: "function", name: choice.name } : choice.type;
    } else if (extraToolChoice !== undefined) body.tool_choice = extraToolChoice;
  } else {
    // Upstreams reject `tool_choice` and `parallel_tool_calls` without tools.
    delete body.parallel_tool_calls;
  }

  const { params } = request;
  if (params.maxTokens !== undefined) body.max_output_tokens = params.maxTokens;
  if (params.temperature !== undefined) body.temperature = params.temperature;
  if (params.topP !== undefined) body.top_p = params.topP;
  if (params.stop && params.stop.length > 0) {
    out.warnings.push(warning("dropped_field:stop", "stop sequences cannot be expressed; dropped"));
  }
  if (params.seed !== undefined) {
    out.warnings.push(warning("dropped_field:seed", "seed cannot be expressed; dropped"));
  }
  if (params.topK !== undefined) {
    out.warnings.push(warning("dropped_field:top_k", "top_k cannot be expressed; dropped"));
  }
  if (params.presencePenalty !== undefined) {
    out.warnings.push(
      warning("dropped_field:presence_penalty", "presence_penalty cannot be expressed; dropped"),
    );
  }
  if (params.frequencyPenalty !== undefined) {
    out.warnings.push(
      warning("dropped_field:frequency_penalty", "frequency_penalty cannot be expressed; dropped"),
    );
  }

  const reasoning = reasoningField(request, extraReasoning);
  if (reasoning) body.reasoning = reasoning;
  if (request.stream) body.stream = true;
  // The gateway keeps stored responses itself: nothing is kept upstream unless the client asked for it.
  if (body.store === undefined) body.store = false;
  if (body.store === false && reasoning !== undefined && reasoning.effort !== "none") {
    // Unstored reasoning comes back to the next turn only as encrypted content, so it is always asked for.
    const include = Array.isArray(body.include) ? body.include : [];
    if (!include.includes(ENCRYPTED_REASONING)) body.include = [...include, ENCRYPTED_REASONING];
  }
  const warnings: GatewayWarning[] = [];
  addWarnings(warnings, out.warnings);
  return { body, warnings };
}
