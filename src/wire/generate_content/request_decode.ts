import type {
  GenerationParams,
  Message,
  NeutralRequest,
  Part,
  ReasoningEffort,
  ReasoningIntent,
  TextPart,
  ToolChoice,
  ToolDefinition,
} from "../../model/mod.ts";
import { splitExtra } from "../../model/mod.ts";
import type { DecodeContext } from "../codec.ts";
import { invalidAt, parseAt, quoteValue } from "../shared/mod.ts";
import { jsonSchemaFromOpenApi } from "./openapi_schema.ts";
import { decodePart } from "./parts_decode.ts";
import { type GeminiContent, type GeminiRequest, requestSchema } from "./schema.ts";
import { effortForLevel, THINKING_BUDGET_DYNAMIC } from "./thinking.ts";
import { RequestToolIds } from "./tool_ids.ts";

const FORMAT = "generate_content";
/** The provider prefix a bare model name in the URL gets. */
export const DEFAULT_MODEL_PREFIX = "gemini";

const REQUEST_KEYS: ReadonlySet<string> = new Set([
  "contents",
  "systemInstruction",
  "generationConfig",
  "tools",
  "toolConfig",
  "model",
]);
const GENERATION_KEYS: ReadonlySet<string> = new Set([
  "maxOutputTokens",
  "temperature",
  "topP",
  "topK",
  "stopSequences",
  "seed",
  "presencePenalty",
  "frequencyPenalty",
  "thinkingConfig",
]);
const THINKING_KEYS: ReadonlySet<string> = new Set(["thinkingBudget", "includeThoughts"]);
const DECLARATION_KEYS: ReadonlySet<string> = new Set([
  "name",
  "description",
  "parameters",
  "parametersJsonSchema",
]);
const CONTENT_KEYS: ReadonlySet<string> = new Set(["role", "parts"]);
const NO_PART_FIELD =
  "part has no known field (expected text, inlineData, fileData, functionCall or functionResponse)";

/** Decodes a generateContent client body; the model and the stream flag come from the URL. */
export function decodeRequest(body: unknown, ctx: DecodeContext): NeutralRequest {
  const request = parseAt(requestSchema, body);
  const extra: Record<string, unknown> = { ...splitExtra(request, REQUEST_KEYS, FORMAT)?.fields };

  const generation = decodeGeneration(request.generationConfig);
  if (generation.extra) extra.generationConfig = generation.extra;
  const tools = decodeTools(request.tools);
  if (tools.extra.length > 0) extra.tools = tools.extra;
  const choice = decodeToolChoice(request.toolConfig);
  if (choice.extra) extra.toolConfig = choice.extra;

  return {
    model: modelFrom(ctx, request),
    system: decodeSystem(request.systemInstruction),
    messages: decodeContents(request.contents),
    tools: tools.definitions,
    ...(choice.choice ? { toolChoice: choice.choice } : {}),
    params: generation.params,
    ...(generation.reasoning ? { reasoning: generation.reasoning } : {}),
    stream: ctx.pathStream ?? false,
    source: FORMAT,
    ...(Object.keys(extra).length > 0 ? { extra: { format: FORMAT, fields: extra } } : {}),
  };
}

function modelFrom(ctx: DecodeContext, request: GeminiRequest): string {
  const fromBody = typeof request.model === "string" ? request.model.replace(/^models\//, "") : undefined;
  const model = ctx.pathModel || fromBody;
  if (!model) {
    throw invalidAt(
      ["model"],
      "is required; expected POST /v1beta/models/{prefix/model}:generateContent",
    );
  }
  return model.includes("/") || ctx.isComboName?.(model) ? model : `${DEFAULT_MODEL_PREFIX}/${model}`;
}

function decodeSystem(system: GeminiContent | undefined): TextPart[] {
  const out: TextPart[] = [];
  (system?.parts ?? []).forEach((part, index) => {
    if (part.text === undefined) {
      throw invalidAt(
        ["systemInstruction", "parts", index],
        "only text parts are supported in systemInstruction",
      );
    }
    out.push({ kind: "text", text: part.text });
  });
  return out;
}

function decodeContents(contents: readonly GeminiContent[]): Message[] {
  const ids = new RequestToolIds();
  const messages: Message[] = [];
  contents.forEach((content, contentIndex) => {
    const role = content.role ?? "user";
    if (role !== "user" && role !== "model" && role !== "function") {
      throw invalidAt(
        ["contents", contentIndex, "role"],
        `unknown role ${quoteValue(role)} (expected "user" or "model")`,
      );
    }
    const policy = ids.forContent(contentIndex);
    const parts = (content.parts ?? []).map((part, partIndex) => {
      const decoded = decodePart(part, policy);
      if (!decoded) throw invalidAt(["contents", contentIndex, "parts", partIndex], NO_PART_FIELD);
      checkRole(decoded, role === "model", ["contents", contentIndex, "parts", partIndex]);
      return decoded;
    });
    if (parts.length === 0) return;
    const extra = splitExtra(content, CONTENT_KEYS, FORMAT);
    if (role === "model") {
      messages.push({ role: "assistant", parts, ...(extra ? { extra } : {}) });
      return;
    }
    // A user turn may mix function responses with text; the neutral model keeps them in separate
    // tool and user messages, in order.
    let run: Part[] = [];
    let runIsTool = false;
    let first = true;
    const flush = () => {
      if (run.length === 0) return;
      const message: Message = { role: runIsTool ? "tool" : "user", parts: run };
      messages.push(first && extra ? { ...message, extra } : message);
      first = false;
      run = [];
    };
    for (const part of parts) {
      const isTool = part.kind === "toolResult";
      if (run.length > 0 && isTool !== runIsTool) flush();
      runIsTool = isTool;
      run.push(part);
    }
    flush();
  });
  return messages;
}

function checkRole(part: Part, inModelTurn: boolean, path: readonly (string | number)[]): void {
  if (inModelTurn && part.kind === "toolResult") {
    throw invalidAt(path, "functionResponse is only valid in a user turn");
  }
  if (!inModelTurn && part.kind === "toolCall") {
    throw invalidAt(path, "functionCall is only valid in a model turn");
  }
}

interface DecodedGeneration {
  params: GenerationParams;
  reasoning?: ReasoningIntent;
  extra?: Record<string, unknown>;
}

function decodeGeneration(config: GeminiRequest["generationConfig"]): DecodedGeneration {
  if (!config) return { params: {} };
  const params: GenerationParams = {
    ...(config.maxOutputTokens === undefined ? {} : { maxTokens: config.maxOutputTokens }),
    ...(config.temperature === undefined ? {} : { temperature: config.temperature }),
    ...(config.topP === undefined ? {} : { topP: config.topP }),
    ...(config.topK === undefined ? {} : { topK: config.topK }),
    ...(config.stopSequences === undefined ? {} : { stop: config.stopSequences }),
    ...(config.seed === undefined ? {} : { seed: config.seed }),
    ...(config.presencePenalty === undefined ? {} : { presencePenalty: config.presencePenalty }),
    ...(config.frequencyPenalty === undefined ? {} : { frequencyPenalty: config.frequencyPenalty }),
  };
  const extra: Record<string, unknown> = { ...splitExtra(config, GENERATION_KEYS, FORMAT)?.fields };
  const thinking = config.thinkingConfig;
  if (!thinking) return { params, ...(Object.keys(extra).length > 0 ? { extra } : {}) };

  const thinkingExtra: Record<string, unknown> = { ...splitExtra(thinking, THINKING_KEYS, FORMAT)?.fields };
  let effort: ReasoningEffort | undefined;
  let budgetTokens: number | undefined;
  if (thinking.thinkingLevel !== undefined) effort = effortForLevel(thinking.thinkingLevel);
  if (thinking.thinkingBudget === THINKING_BUDGET_DYNAMIC) {
    // "Dynamic" has no neutral equivalent; it is kept so a Gemini upstream gets it back.
    thinkingExtra.thinkingBudget = THINKING_BUDGET_DYNAMIC;
  } else if (thinking.thinkingBudget !== undefined) {
    budgetTokens = thinking.thinkingBudget;
    if (budgetTokens === 0) effort = "none";
  }
  const reasoning: ReasoningIntent = {
    ...(effort === undefined ? {} : { effort }),
    ...(budgetTokens === undefined ? {} : { budgetTokens }),
    ...(thinking.includeThoughts === undefined ? {} : { includeThoughts: thinking.includeThoughts }),
  };
  if (Object.keys(thinkingExtra).length > 0) extra.thinkingConfig = thinkingExtra;
  return {
    params,
    ...(Object.keys(reasoning).length > 0 ? { reasoning } : {}),
    ...(Object.keys(extra).length > 0 ? { extra } : {}),
  };
}

function decodeTools(tools: GeminiRequest["tools"]): { definitions: ToolDefinition[]; extra: unknown[] } {
  const definitions: ToolDefinition[] = [];
  const extra: unknown[] = [];
  for (const tool of tools ?? []) {
    for (const declaration of tool.functionDeclarations ?? []) {
      const declarationExtra = splitExtra(declaration, DECLARATION_KEYS, FORMAT);
      const parameters = declaration.parametersJsonSchema ??
        (declaration.parameters
          ? jsonSchemaFromOpenApi(declaration.parameters)
          : { type: "object", properties: {} });
      definitions.push({
        name: declaration.name,
        ...(declaration.description === undefined ? {} : { description: declaration.description }),
        parameters,
        ...(declarationExtra ? { extra: declarationExtra } : {}),
      });
    }
    // Built-in tools (googleSearch, codeExecution, urlContext…) only mean something to Gemini.
    const rest = splitExtra(tool, new Set(["functionDeclarations"]), FORMAT);
    if (rest) extra.push(rest.fields);
  }
  return { definitions, extra };
}

function decodeToolChoice(
  config: GeminiRequest["toolConfig"],
): { choice?: ToolChoice; extra?: Record<string, unknown> } {
  if (!config) return {};
  const extra: Record<string, unknown> = {
    ...splitExtra(config, new Set(["functionCallingConfig"]), FORMAT)?.fields,
  };
  const calling = config.functionCallingConfig;
  let choice: ToolChoice | undefined;
  if (calling) {
    const callingExtra: Record<string, unknown> = {
      ...splitExtra(calling, new Set(["mode", "allowedFunctionNames"]), FORMAT)?.fields,
    };
    const names = calling.allowedFunctionNames;
    const mode = calling.mode?.toUpperCase();
    if (mode === "AUTO") choice = { type: "auto" };
    else if (mode === "NONE") choice = { type: "none" };
    else if (mode === "ANY") {
      choice = names?.length === 1 ? { type: "tool", name: names[0] } : { type: "required" };
    } else if (calling.mode !== undefined) callingExtra.mode = calling.mode;
    // A list of several allowed names has no neutral form; Gemini gets it back from extra.
    if (names !== undefined && !(mode === "ANY" && names.length === 1)) {
      callingExtra.allowedFunctionNames = names;
    }
    if (Object.keys(callingExtra).length > 0) extra.functionCallingConfig = callingExtra;
  }
  return { ...(choice ? { choice } : {}), ...(Object.keys(extra).length > 0 ? { extra } : {}) };
}
