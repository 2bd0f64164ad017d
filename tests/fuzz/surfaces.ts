/**
 * The client surfaces the fuzzer attacks: where each is served, its error envelope, valid requests to
 * mutate and how it spells a tool, so tool-schema attacks reach every surface in its own syntax.
 */
import type { Envelope, Rng } from "./fuzzer.ts";

/** Provider prefixes of the fuzz gateway, one per upstream wire format. */
export const PREFIXES = ["up_chat", "up_messages", "up_generate", "up_responses"] as const;

/** One client surface. */
export interface FuzzSurface {
  readonly name: string;
  readonly envelope: Envelope;
  /** The request path for a model (generate-content puts the model there). */
  path(rng: Rng, model: string, stream: boolean): string;
  /** A valid body for `model` around a user text; `tools` is raw JSON text of its tools array. */
  body(model: string, text: string, stream: boolean, tools?: string): Record<string, unknown>;
  /** One tool in this surface's syntax with raw JSON schema text, as raw JSON text. */
  tool(name: string, schema: string): string;
  /** The body field that holds the tools array. */
  readonly toolsField: string;
}

const WEATHER_SCHEMA = '{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}';

function openAiTool(name: string, schema: string): string {
  return `{"type":"function","function":{"name":${JSON.stringify(name)},"parameters":${schema}}}`;
}

/** Every client surface, local runner endpoints and count_tokens included. */
export const SURFACES: readonly FuzzSurface[] = [
  {
    name: "chat_completions",
    envelope: "openai",
    path: () => "/v1/chat/completions",
    body: (model, text, stream) => ({
      model,
      stream,
      max_tokens: 64,
      messages: [{ role: "system", content: "be brief" }, { role: "user", content: text }],
    }),
    tool: openAiTool,
    toolsField: "tools",
  },
  {
    name: "responses",
    envelope: "openai",
    path: () => "/v1/responses",
    body: (model, text, stream) => ({
      model,
      stream,
      instructions: "be brief",
      input: [{ role: "user", content: [{ type: "input_text", text }] }],
    }),
    tool: (name, schema) => `{"type":"function","name":${JSON.stringify(name)},"parameters":${schema}}`,
    toolsField: "tools",
  },
  {
    name: "messages",
    envelope: "messages",
    path: () => "/v1/messages",
    body: (model, text, stream) => ({
      model,
      stream,
      max_tokens: 64,
      system: "be brief",
      messages: [{ role: "user", content: [{ type: "text", text }] }],
    }),
    tool: (name, schema) => `{"name":${JSON.stringify(name)},"input_schema":${schema}}`,
    toolsField: "tools",
  },
  {
    name: "count_tokens",
    envelope: "messages",
    path: () => "/v1/messages/count_tokens",
    body: (model, text) => ({ model, messages: [{ role: "user", content: text }] }),
    tool: (name, schema) => `{"name":${JSON.stringify(name)},"input_schema":${schema}}`,
    toolsField: "tools",
  },
  {
    name: "generate_content",
    envelope: "generate",
    path: (rng, model, stream) => generatePath(rng, model, stream),
    body: (_model, text) => ({
      systemInstruction: { parts: [{ text: "be brief" }] },
      contents: [{ role: "user", parts: [{ text }] }],
      generationConfig: { maxOutputTokens: 64 },
    }),
    tool: (name, schema) =>
      `{"functionDeclarations":[{"name":${JSON.stringify(name)},"parameters":${schema}}]}`,
    toolsField: "tools",
  },
  {
    // Legacy completions have no tools: tool attacks test that they are dropped, never forwarded.
    name: "legacy_completions",
    envelope: "openai",
    path: () => "/v1/completions",
    body: (model, text, stream) => ({ model, stream, max_tokens: 64, prompt: text }),
    tool: openAiTool,
    toolsField: "tools",
  },
  {
    // Images and speech take no tools: tool attacks test that unknown fields are refused or passed on safely.
    name: "image_generations",
    envelope: "openai",
    path: () => "/v1/images/generations",
    body: (model, text) => ({ model, prompt: text, n: 1, size: "1024x1024" }),
    tool: openAiTool,
    toolsField: "tools",
  },
  {
    name: "audio_speech",
    envelope: "openai",
    path: () => "/v1/audio/speech",
    body: (model, text) => ({ model, input: text, voice: "alloy" }),
    tool: openAiTool,
    toolsField: "tools",
  },
  {
    // Embeddings take no tools either. An `-embed` suffix makes the campaigns' chat model names embedding
    // models, so valid requests reach the upstream (and hostile answers the decoders) instead of a 400.
    name: "openai_embeddings",
    envelope: "openai",
    path: () => "/v1/embeddings",
    body: (model, text) => ({ model: `${model}-embed`, input: [text, "second"], encoding_format: "base64" }),
    tool: openAiTool,
    toolsField: "tools",
  },
  {
    name: "gemini_batch_embed",
    envelope: "generate",
    path: (rng, model) =>
      `${rng.chance(0.8) ? "/v1beta/models/" : "/v1/models/"}${
        pathEncode(`${model}-embed`)
      }:batchEmbedContents`,
    body: (model, text) => ({
      requests: [{
        model: `models/${model}-embed`,
        content: { parts: [{ text }] },
        taskType: "RETRIEVAL_QUERY",
      }],
    }),
    tool: openAiTool,
    toolsField: "tools",
  },
  {
    name: "local_runner_embed",
    envelope: "local_runner",
    path: () => "/api/embed",
    body: (model, text) => ({ model: `${model}-embed`, input: text, truncate: false }),
    tool: openAiTool,
    toolsField: "tools",
  },
  {
    // Rerank takes no tools. A `-rerank` suffix makes the campaigns' chat model names rerankers, so valid
    // requests reach the upstream (and hostile answers the rerank decoder) instead of stopping at the 400.
    name: "rerank_v1",
    envelope: "rerank",
    path: () => "/v1/rerank",
    body: (model, text) => ({
      model: `${model}-rerank`,
      query: text,
      documents: [text, { text: "second", id: 2 }],
      top_n: 2,
      return_documents: true,
    }),
    tool: openAiTool,
    toolsField: "tools",
  },
  {
    name: "rerank_v2",
    envelope: "rerank",
    path: () => "/v2/rerank",
    body: (model, text) => ({ model: `${model}-rerank`, query: text, documents: [text, "second"] }),
    tool: openAiTool,
    toolsField: "tools",
  },
  {
    name: "local_runner_chat",
    envelope: "local_runner",
    path: () => "/api/chat",
    body: (model, text, stream) => ({ model, stream, messages: [{ role: "user", content: text }] }),
    tool: openAiTool,
    toolsField: "tools",
  },
  {
    name: "local_runner_generate",
    envelope: "local_runner",
    path: () => "/api/generate",
    body: (model, text, stream) => ({ model, stream, system: "be brief", prompt: text }),
    tool: openAiTool,
    toolsField: "tools",
  },
];

/** A valid tool to start from. */
export function weatherTool(surface: FuzzSurface): string {
  return surface.tool("get_weather", WEATHER_SCHEMA);
}

/** Percent-encodes a model for a URL path, lone surrogates as the bytes a broken client would send. */
export function pathEncode(model: string): string {
  let out = "";
  for (const char of model) {
    const code = char.codePointAt(0) ?? 0;
    if (code >= 0xd800 && code <= 0xdfff) out += "%ED%" + (0xa0 + ((code >> 6) & 0x1f)).toString(16) + "%80";
    else if (char === "/") out += "/";
    // A bare `..` segment would be resolved away by the fetch client before the gateway sees it.
    else if (char === ".") out += "%2E";
    else out += encodeURIComponent(char);
  }
  return out;
}

/** `/v1beta/models/<model>:<method>`, now and then with a broken method or prefix. */
function generatePath(rng: Rng, model: string, stream: boolean): string {
  const prefix = rng.chance(0.8) ? "/v1beta/models/" : "/v1/models/";
  const method = rng.chance(0.95)
    ? (stream ? "streamGenerateContent" : "generateContent")
    : rng.pick(["", "embedContent", "generateContent:generateContent", "%00", "countTokens"]);
  const sse = stream && rng.chance(0.7) ? "?alt=sse" : "";
  return `${prefix}${pathEncode(model)}${method === "" ? "" : `:${method}`}${sse}`;
}
