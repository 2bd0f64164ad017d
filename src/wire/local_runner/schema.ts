import { quoteValue } from "../shared/mod.ts";
import { z } from "zod";
import { MAX_TOOLS, TOOLS_TOO_MANY } from "../shared/limits.ts";

/** Ollama's `think` field: on/off or, for models that support it, a level. */
export const thinkSchema = z.union([z.boolean(), z.enum(["low", "medium", "high"])], {
  error: (issue) => `must be true, false, "low", "medium" or "high", not ${quoteValue(issue.input)}`,
});

/** `options`: sampling and runtime knobs; only the shape is checked, unknown keys pass through. */
export const optionsSchema = z.record(z.string(), z.unknown());

/** One entry of an assistant message's `tool_calls`. Ollama sends arguments as an object. */
export const toolCallSchema = z.looseObject({
  id: z.string().optional(),
  function: z.looseObject({
    name: z.string().min(1),
    // Some clients send OpenAI-style JSON text; both are accepted.
    arguments: z.union([z.record(z.string(), z.unknown()), z.string()]).nullish(),
    index: z.number().int().optional(),
  }),
});

/** A chat message as clients send it to /api/chat. */
export const messageSchema = z.looseObject({
  role: z.enum(["system", "user", "assistant", "tool"], {
    error: (issue) => `must be one of "system", "user", "assistant", "tool", not ${quoteValue(issue.input)}`,
  }),
  content: z.string().nullish(),
  thinking: z.string().nullish(),
  images: z.array(z.string()).nullish(),
  tool_calls: z.array(toolCallSchema).nullish(),
  tool_name: z.string().nullish(),
  tool_call_id: z.string().nullish(),
});

/** A tool definition in the nested `{type, function:{…}}` shape. */
export const toolSchema = z.looseObject({
  type: z.string().optional(),
  function: z.looseObject({
    name: z.string().min(1),
    description: z.string().nullish(),
    parameters: z.record(z.string(), z.unknown()).nullish(),
  }),
});

const modelSchema = z.string().min(1);

/** POST /api/chat body. */
export const chatRequestSchema = z.looseObject({
  model: modelSchema,
  messages: z.array(messageSchema).nullish(),
  tools: z.array(toolSchema).max(MAX_TOOLS, TOOLS_TOO_MANY).nullish(),
  stream: z.boolean().nullish(),
  options: optionsSchema.nullish(),
  think: thinkSchema.nullish(),
});

/** POST /api/generate body. */
export const generateRequestSchema = z.looseObject({
  model: modelSchema,
  prompt: z.string().nullish(),
  system: z.string().nullish(),
  images: z.array(z.string()).nullish(),
  stream: z.boolean().nullish(),
  options: optionsSchema.nullish(),
  think: thinkSchema.nullish(),
});

/** A tool call as an upstream reports it (response or stream line). */
export const upstreamToolCallSchema = z.looseObject({
  id: z.string().nullish(),
  function: z.looseObject({
    name: z.string(),
    arguments: z.union([z.record(z.string(), z.unknown()), z.string()]).nullish(),
  }),
});

/** One upstream /api/chat object: a whole answer, or one NDJSON stream line. Generate's `response` is tolerated. */
export const upstreamChunkSchema = z.looseObject({
  model: z.string().nullish(),
  created_at: z.string().nullish(),
  message: z.looseObject({
    role: z.string().nullish(),
    content: z.string().nullish(),
    thinking: z.string().nullish(),
    tool_calls: z.array(upstreamToolCallSchema).nullish(),
  }).nullish(),
  response: z.string().nullish(),
  thinking: z.string().nullish(),
  done: z.boolean().nullish(),
  done_reason: z.string().nullish(),
  prompt_eval_count: z.number().nullish(),
  eval_count: z.number().nullish(),
  error: z.unknown().optional(),
});

/** Inferred types of the schemas above. */
export type ChatRequestBody = z.infer<typeof chatRequestSchema>;
/** A decoded /api/generate body. */
export type GenerateRequestBody = z.infer<typeof generateRequestSchema>;
/** A decoded chat message. */
export type MessageBody = z.infer<typeof messageSchema>;
/** A decoded `think` value. */
export type ThinkValue = z.infer<typeof thinkSchema>;
/** A decoded upstream chunk or answer. */
export type UpstreamChunk = z.infer<typeof upstreamChunkSchema>;
/** A decoded upstream tool call. */
export type UpstreamToolCall = z.infer<typeof upstreamToolCallSchema>;
