/**
 * The Playground's knowledge of the five client formats: how a request is written in each (path and body)
 * and how an answer in each is read back (text, reasoning, tool calls, tokens). It plays a client, so it
 * speaks the public wire formats, as an SDK would; the gateway's codecs stay on the server.
 */

/** The client formats the Playground can send as (the gateway's surfaces). */
export const PLAYGROUND_FORMATS = [
  { id: "chat_completions", label: "Chat Completions (OpenAI)" },
  { id: "messages", label: "Messages (Anthropic)" },
  { id: "responses", label: "Responses (OpenAI)" },
  { id: "generate_content", label: "Generate Content (Gemini)" },
  { id: "local_runner", label: "Local runner (Ollama)" },
] as const;

export type PlaygroundFormat = typeof PLAYGROUND_FORMATS[number]["id"];

/** What the form holds. */
export interface PlaygroundForm {
  readonly format: PlaygroundFormat;
  readonly model: string;
  readonly system: string;
  readonly message: string;
  /** Tools as the chosen format writes them (a JSON array), "" for none. */
  readonly tools: string;
  readonly stream: boolean;
  /** "" leaves the model's default. */
  readonly temperature: string;
  readonly maxTokens: string;
}

/** The path a request in `format` goes to; generate content names the model and the method in it. */
export function requestPath(format: PlaygroundFormat, model: string, stream: boolean): string {
  switch (format) {
    case "chat_completions":
      return "/v1/chat/completions";
    case "messages":
      return "/v1/messages";
    case "responses":
      return "/v1/responses";
    case "generate_content":
      return `/v1beta/models/${encodeURIComponent(model)}:${
        stream ? "streamGenerateContent?alt=sse" : "generateContent"
      }`;
    case "local_runner":
      return "/api/chat";
  }
}

/** Whether a body in `format` asks for a stream (generate content says it in the path instead). */
export function bodyStreams(format: PlaygroundFormat, body: Record<string, unknown>, path: string): boolean {
  return format === "generate_content" ? path.includes("streamGenerateContent") : body.stream === true;
}

/** Parses the tools field; throws a readable message when it is not a JSON array. */
export function parseTools(text: string): unknown[] | undefined {
  if (text.trim() === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`Tools are not valid JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(value)) throw new Error("Tools must be a JSON array");
  return value;
}

/** The request body the form describes, in the form's format. */
export function buildBody(form: PlaygroundForm): Record<string, unknown> {
  const tools = parseTools(form.tools);
  const temperature = form.temperature.trim() === "" ? undefined : Number(form.temperature);
  const maxTokens = form.maxTokens.trim() === "" ? undefined : Number(form.maxTokens);
  const system = form.system.trim() === "" ? undefined : form.system;
  const user = form.message;
  const withOptional = (body: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
  switch (form.format) {
    case "chat_completions":
      return withOptional({
        model: form.model,
        messages: [...(system ? [{ role: "system", content: system }] : []), { role: "user", content: user }],
        stream: form.stream,
        ...(form.stream ? { stream_options: { include_usage: true } } : {}),
        temperature,
        max_tokens: maxTokens,
        tools,
      });
    case "messages":
      return withOptional({
        model: form.model,
        system,
        messages: [{ role: "user", content: user }],
        // The Messages API requires max_tokens.
        max_tokens: maxTokens ?? 1024,
        temperature,
        stream: form.stream,
        tools,
      });
    case "responses":
      return withOptional({
        model: form.model,
        instructions: system,
        input: user,
        stream: form.stream,
        temperature,
        max_output_tokens: maxTokens,
        tools,
      });
    case "generate_content":
      return withOptional({
        systemInstruction: system ? { parts: [{ text: system }] } : undefined,
        contents: [{ role: "user", parts: [{ text: user }] }],
        generationConfig: temperature === undefined && maxTokens === undefined
          ? undefined
          : withOptional({ temperature, maxOutputTokens: maxTokens }),
        tools,
      });
    case "local_runner":
      return withOptional({
        model: form.model,
        messages: [...(system ? [{ role: "system", content: system }] : []), { role: "user", content: user }],
        stream: form.stream,
        options: temperature === undefined && maxTokens === undefined
          ? undefined
          : withOptional({ temperature, num_predict: maxTokens }),
        tools,
      });
  }
}

/** One tool call as the answer gave it. */
export interface ToolCallSeen {
  name: string;
  arguments: string;
}

/** What has been read of an answer so far. */
export interface AnswerSoFar {
  text: string;
  reasoning: string;
  toolCalls: ToolCallSeen[];
  inputTokens: number | null;
  outputTokens: number | null;
  /** An error the answer itself carried (a stream's error event). */
  error: string;
}

export function emptyAnswer(): AnswerSoFar {
  return { text: "", reasoning: "", toolCalls: [], inputTokens: null, outputTokens: null, error: "" };
}

// Wire payloads of five formats, read defensively: every access is optional-chained or type-tested.
// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

/** Folds one answer object (a whole body, or one stream event's data) of `format` into `into`. */
export function readPiece(format: PlaygroundFormat, piece: Json, into: AnswerSoFar): void {
  if (piece === null || typeof piece !== "object") return;
  if (piece.error) into.error = messageOf(piece.error);
  switch (format) {
    case "chat_completions":
      return readChat(piece, into);
    case "messages":
      return readMessages(piece, into);
    case "responses":
      return readResponses(piece, into);
    case "generate_content":
      return readGenerate(piece, into);
    case "local_runner":
      return readLocal(piece, into);
  }
}

function messageOf(error: unknown): string {
  if (typeof error === "string") return error;
  const e = error as Json;
  return String(e?.message ?? JSON.stringify(error));
}

function readChat(piece: Json, into: AnswerSoFar): void {
  const choice = piece.choices?.[0];
  const part = choice?.delta ?? choice?.message;
  if (part) {
    if (typeof part.content === "string") into.text += part.content;
    const reasoning = part.reasoning_content ?? part.reasoning;
    if (typeof reasoning === "string") into.reasoning += reasoning;
    for (const call of part.tool_calls ?? []) {
      const index = typeof call.index === "number" ? call.index : into.toolCalls.length;
      const seen = into.toolCalls[index] ??= { name: "", arguments: "" };
      if (call.function?.name) seen.name += call.function.name;
      if (call.function?.arguments) seen.arguments += call.function.arguments;
    }
  }
  if (piece.usage) {
    into.inputTokens = piece.usage.prompt_tokens ?? into.inputTokens;
    into.outputTokens = piece.usage.completion_tokens ?? into.outputTokens;
  }
}

function readMessages(piece: Json, into: AnswerSoFar): void {
  if (Array.isArray(piece.content)) {
    for (const block of piece.content) readMessagesBlock(block, into);
  }
  if (piece.type === "message_start") readMessages(piece.message ?? {}, into);
  if (piece.type === "content_block_start") readMessagesBlock(piece.content_block ?? {}, into);
  if (piece.type === "content_block_delta") {
    const d = piece.delta ?? {};
    if (d.type === "text_delta") into.text += d.text ?? "";
    if (d.type === "thinking_delta") into.reasoning += d.thinking ?? "";
    if (d.type === "input_json_delta" && into.toolCalls.length > 0) {
      into.toolCalls[into.toolCalls.length - 1].arguments += d.partial_json ?? "";
    }
  }
  const usage = piece.usage;
  if (usage) {
    if (typeof usage.input_tokens === "number") into.inputTokens = usage.input_tokens;
    if (typeof usage.output_tokens === "number") into.outputTokens = usage.output_tokens;
  }
}

function readMessagesBlock(block: Json, into: AnswerSoFar): void {
  if (block.type === "text") into.text += block.text ?? "";
  if (block.type === "thinking") into.reasoning += block.thinking ?? "";
  if (block.type === "tool_use") {
    const input = block.input && Object.keys(block.input).length > 0 ? JSON.stringify(block.input) : "";
    into.toolCalls.push({ name: block.name ?? "", arguments: input });
  }
}

function readResponses(piece: Json, into: AnswerSoFar): void {
  switch (piece.type) {
    case "response.output_text.delta":
      into.text += piece.delta ?? "";
      return;
    case "response.reasoning_summary_text.delta":
    case "response.reasoning_text.delta":
      into.reasoning += piece.delta ?? "";
      return;
    case "response.output_item.added":
      if (piece.item?.type === "function_call") {
        into.toolCalls.push({ name: piece.item.name ?? "", arguments: "" });
      }
      return;
    case "response.function_call_arguments.delta":
      if (into.toolCalls.length > 0) into.toolCalls[into.toolCalls.length - 1].arguments += piece.delta ?? "";
      return;
    case "response.completed":
    case "response.incomplete":
    case "response.failed":
      readResponsesUsage(piece.response ?? {}, into);
      if (piece.response?.error) into.error = messageOf(piece.response.error);
      return;
  }
  if (piece.object === "response") {
    for (const item of piece.output ?? []) {
      if (item.type === "message") {
        for (const c of item.content ?? []) if (c.type === "output_text") into.text += c.text ?? "";
      }
      if (item.type === "function_call") {
        into.toolCalls.push({ name: item.name, arguments: item.arguments ?? "" });
      }
      if (item.type === "reasoning") {
        for (const s of item.summary ?? []) into.reasoning += s.text ?? "";
      }
    }
    readResponsesUsage(piece, into);
  }
}

function readResponsesUsage(response: Json, into: AnswerSoFar): void {
  if (!response.usage) return;
  into.inputTokens = response.usage.input_tokens ?? into.inputTokens;
  into.outputTokens = response.usage.output_tokens ?? into.outputTokens;
}

function readGenerate(piece: Json, into: AnswerSoFar): void {
  for (const part of piece.candidates?.[0]?.content?.parts ?? []) {
    if (typeof part.text === "string") {
      if (part.thought) into.reasoning += part.text;
      else into.text += part.text;
    }
    if (part.functionCall) {
      into.toolCalls.push({
        name: part.functionCall.name ?? "",
        arguments: JSON.stringify(part.functionCall.args ?? {}),
      });
    }
  }
  const usage = piece.usageMetadata;
  if (usage) {
    into.inputTokens = usage.promptTokenCount ?? into.inputTokens;
    into.outputTokens = usage.candidatesTokenCount ?? into.outputTokens;
  }
}

function readLocal(piece: Json, into: AnswerSoFar): void {
  const message = piece.message;
  if (message) {
    if (typeof message.content === "string") into.text += message.content;
    if (typeof message.thinking === "string") into.reasoning += message.thinking;
    for (const call of message.tool_calls ?? []) {
      into.toolCalls.push({
        name: call.function?.name ?? "",
        arguments: JSON.stringify(call.function?.arguments ?? {}),
      });
    }
  }
  if (typeof piece.prompt_eval_count === "number") into.inputTokens = piece.prompt_eval_count;
  if (typeof piece.eval_count === "number") into.outputTokens = piece.eval_count;
}

/**
 * Splits streamed text into complete events: SSE `data:` payloads, or NDJSON lines for the local runner.
 * Returns the parsed events and the unfinished tail to carry into the next chunk.
 */
export function splitEvents(format: PlaygroundFormat, buffer: string): { events: Json[]; rest: string } {
  const events: Json[] = [];
  const lines = buffer.split("\n");
  const rest = lines.pop() ?? "";
  for (const raw of lines) {
    const line = raw.trim();
    const data = format === "local_runner" ? line : line.startsWith("data:") ? line.slice(5).trim() : "";
    if (data === "" || data === "[DONE]") continue;
    try {
      events.push(JSON.parse(data));
    } catch {
      // A line that is not JSON (a comment or keep-alive) carries nothing to show.
    }
  }
  return { events, rest };
}
