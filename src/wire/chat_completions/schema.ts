/** Zod schemas for the chat-completions request body; errors are worded by the shared parseAt. */
import { z } from "zod";
import { MAX_TOOLS, TOOLS_TOO_MANY } from "../shared/limits.ts";

/** Content given as a string or as a list of typed parts (each part is dispatched on `type` later). */
const contentSchema = z.union([z.string(), z.array(z.looseObject({ type: z.string() }))], {
  error: "must be a string or an array of content parts",
});

/** `{type:"text", text}` content part. */
export const textPartSchema = z.looseObject({ type: z.literal("text"), text: z.string() });

/** `{type:"image_url", image_url:{url, detail?}}` content part (a bare string url is tolerated). */
export const imagePartSchema = z.looseObject({
  type: z.literal("image_url"),
  image_url: z.union([z.string(), z.looseObject({ url: z.string(), detail: z.string().nullish() })], {
    error: "must be an object with a string url",
  }),
});

/** One entry of an assistant message's `tool_calls`. Arguments given as an object are tolerated. */
export const toolCallSchema = z.looseObject({
  id: z.string().min(1),
  type: z.string().optional(),
  function: z.looseObject({
    name: z.string(),
    arguments: z.union([z.string(), z.record(z.string(), z.unknown())], {
      error: "must be a JSON string",
    }).nullish(),
  }),
});

/** A `system` or `developer` message. */
export const systemMessageSchema = z.looseObject({
  role: z.enum(["system", "developer"]),
  content: contentSchema,
  name: z.string().optional(),
});

/** A `user` message. */
export const userMessageSchema = z.looseObject({
  role: z.literal("user"),
  content: contentSchema,
  name: z.string().optional(),
});

/** An `assistant` message (history replay). */
export const assistantMessageSchema = z.looseObject({
  role: z.literal("assistant"),
  content: contentSchema.nullish(),
  name: z.string().optional(),
  tool_calls: z.array(toolCallSchema).nullish(),
  reasoning_content: z.string().nullish(),
});

/** A `tool` message carrying one tool result. */
export const toolMessageSchema = z.looseObject({
  role: z.literal("tool"),
  tool_call_id: z.string(),
  content: contentSchema.nullish(),
});

/** A tool definition; `type` may be missing (some clients send bare `{function}`). */
export const toolSchema = z.looseObject({
  type: z.string().optional(),
  function: z.looseObject({
    name: z.string().min(1),
    description: z.string().nullish(),
    parameters: z.record(z.string(), z.unknown()).nullish(),
  }).optional(),
});

const optionalNumber = z.number().nullish();

/** The top level of a chat-completions request; messages are validated one by one per role. */
export const requestSchema = z.looseObject({
  model: z.string().min(1),
  messages: z.array(z.unknown()).min(1, "must contain at least one message"),
  tools: z.array(toolSchema).max(MAX_TOOLS, TOOLS_TOO_MANY).nullish(),
  tool_choice: z.union([z.string(), z.looseObject({ type: z.string() })], {
    error: "must be a string or an object with a type",
  }).nullish(),
  stop: z.union([z.string(), z.array(z.string())], { error: "must be a string or an array of strings" })
    .nullish(),
  max_tokens: z.number().int().nonnegative().nullish(),
  max_completion_tokens: z.number().int().nonnegative().nullish(),
  temperature: optionalNumber,
  top_p: optionalNumber,
  seed: z.number().int().nullish(),
  presence_penalty: optionalNumber,
  frequency_penalty: optionalNumber,
  reasoning_effort: z.string().nullish(),
  stream: z.boolean().nullish(),
});
