import { quoteValue } from "../shared/mod.ts";
import { z } from "zod";
import { MAX_TOOLS, TOOLS_TOO_MANY } from "../shared/limits.ts";

/** A prompt-caching breakpoint (`{type:"ephemeral", ttl?}`). */
export const cacheControlSchema = z.looseObject({
  type: z.literal("ephemeral"),
  ttl: z.string().optional(),
});

/**
 * Any content block, checked only for its `type`; each type is then parsed with its own schema so
 * an error names the exact block and field.
 */
export const blockHeadSchema = z.looseObject({ type: z.string() });

/** `{type:"text"}` content block. */
export const textBlockSchema = z.looseObject({
  type: z.literal("text"),
  text: z.string(),
  cache_control: cacheControlSchema.nullish(),
});

/** The `source` of an image block: inline base64 or a URL. */
export const imageSourceSchema = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("base64"), media_type: z.string().min(1), data: z.string() }),
  z.looseObject({ type: z.literal("url"), url: z.string().min(1) }),
], {
  error: (issue) =>
    issue.code === "invalid_union"
      ? `unsupported image source type ${quoteValue(typeOf(issue.input))} (expected "base64" or "url")`
      : undefined,
});

/** `{type:"image"}` content block. */
export const imageBlockSchema = z.looseObject({
  type: z.literal("image"),
  source: imageSourceSchema,
  cache_control: cacheControlSchema.nullish(),
});

/** `{type:"tool_use"}` content block (an assistant's tool call). */
export const toolUseBlockSchema = z.looseObject({
  type: z.literal("tool_use"),
  id: z.string().min(1),
  name: z.string().min(1),
  input: z.unknown(),
});

/** `{type:"tool_result"}` content block; `content` blocks are checked one by one like message blocks. */
export const toolResultBlockSchema = z.looseObject({
  type: z.literal("tool_result"),
  tool_use_id: z.string().min(1),
  content: z.union([z.string(), z.array(blockHeadSchema)], {
    error: "must be a string or an array of content blocks",
  }).nullish(),
  is_error: z.boolean().nullish(),
  cache_control: cacheControlSchema.nullish(),
});

/** `{type:"thinking"}` content block. */
export const thinkingBlockSchema = z.looseObject({
  type: z.literal("thinking"),
  thinking: z.string(),
  signature: z.string().nullish(),
});

/** `{type:"redacted_thinking"}` content block. */
export const redactedThinkingBlockSchema = z.looseObject({
  type: z.literal("redacted_thinking"),
  data: z.string(),
});

/** One entry of `messages`. */
export const messageSchema = z.looseObject({
  role: z.enum(["user", "assistant", "system"], {
    error: (issue) => `must be "user" or "assistant", not ${quoteValue(issue.input)}`,
  }),
  content: z.union([z.string(), z.array(blockHeadSchema)], {
    error: "must be a string or an array of content blocks",
  }),
});

/** A tool entry; custom tools are checked further with `customToolSchema`, server tools are kept raw. */
export const toolHeadSchema = z.looseObject({ type: z.string().nullish() });

/** A custom (function) tool. */
export const customToolSchema = z.looseObject({
  name: z.string().min(1),
  description: z.string().nullish(),
  input_schema: z.record(z.string(), z.unknown()),
  cache_control: cacheControlSchema.nullish(),
});

/** `tool_choice`. */
export const toolChoiceSchema = z.looseObject({
  type: z.enum(["auto", "any", "none", "tool"]),
  name: z.string().min(1).optional(),
  disable_parallel_tool_use: z.boolean().optional(),
}).refine((choice) => choice.type !== "tool" || choice.name !== undefined, {
  error: 'is required when type is "tool"',
  path: ["name"],
});

/** `thinking`: a budget, off, or adaptive (the model decides, steered by `output_config.effort`). */
export const thinkingConfigSchema = z.looseObject({
  type: z.enum(["enabled", "disabled", "adaptive"]),
  budget_tokens: z.number().int().nonnegative().optional(),
}).refine((thinking) => thinking.type !== "enabled" || thinking.budget_tokens !== undefined, {
  error: 'is required when type is "enabled"',
  path: ["budget_tokens"],
});

/** `output_config`; only `effort` is read, the rest travels in extra. */
export const outputConfigSchema = z.looseObject({ effort: z.string().nullish() });

/** POST /v1/messages body. */
export const requestSchema = z.looseObject({
  model: z.string().min(1),
  max_tokens: z.number().int().positive(),
  messages: z.array(messageSchema).min(1, { error: "must contain at least one message" }),
  system: z.union([z.string(), z.array(blockHeadSchema)], {
    error: "must be a string or an array of text blocks",
  }).nullish(),
  tools: z.array(toolHeadSchema).max(MAX_TOOLS, TOOLS_TOO_MANY).nullish(),
  tool_choice: toolChoiceSchema.nullish(),
  temperature: z.number().nullish(),
  top_p: z.number().nullish(),
  top_k: z.number().int().nullish(),
  stop_sequences: z.array(z.string()).nullish(),
  thinking: thinkingConfigSchema.nullish(),
  output_config: outputConfigSchema.nullish(),
  stream: z.boolean().nullish(),
});

/** An upstream (non-stream) messages response; blocks are read leniently. */
export const responseSchema = z.looseObject({
  id: z.string(),
  type: z.literal("message"),
  model: z.string().nullish(),
  content: z.array(blockHeadSchema),
  stop_reason: z.string().nullish(),
  stop_sequence: z.string().nullish(),
  usage: z.record(z.string(), z.unknown()).nullish(),
});

/** Inferred types of the schemas above. */
export type RequestBody = z.infer<typeof requestSchema>;
/** A decoded message entry. */
export type MessageBody = z.infer<typeof messageSchema>;
/** A decoded block head. */
export type BlockHead = z.infer<typeof blockHeadSchema>;
/** A decoded cache_control. */
export type CacheControlBody = z.infer<typeof cacheControlSchema>;
/** A decoded thinking config. */
export type ThinkingConfig = z.infer<typeof thinkingConfigSchema>;
/** A decoded output_config. */
export type OutputConfig = z.infer<typeof outputConfigSchema>;
/** A decoded upstream response. */
export type ResponseBody = z.infer<typeof responseSchema>;

function typeOf(input: unknown): unknown {
  return typeof input === "object" && input !== null ? (input as Record<string, unknown>).type : input;
}
