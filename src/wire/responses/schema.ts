import { z } from "zod";
import { MAX_TOOLS, TOOLS_TOO_MANY } from "../shared/limits.ts";

/** Effort levels the Responses API accepts in `reasoning.effort`. */
export const EffortSchema = z.enum(["none", "minimal", "low", "medium", "high", "xhigh"]);

/** The top-level request body; items, tools and tool_choice are checked one by one afterwards. */
export const RequestBodySchema = z.looseObject({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(z.unknown())], {
    error: "must be a string or an array of input items",
  }),
  instructions: z.string().nullish(),
  tools: z.array(z.looseObject({ type: z.string() })).max(MAX_TOOLS, TOOLS_TOO_MANY).nullish(),
  tool_choice: z.unknown().optional(),
  max_output_tokens: z.number().int().positive().nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  reasoning: z.looseObject({ effort: EffortSchema.nullish(), summary: z.string().nullish() }).nullish(),
  stream: z.boolean().nullish(),
  // Read by the gateway itself (the response store): a wrong type is refused rather than taken as absent,
  // which would keep what the client asked not to keep, or lose the conversation's history unseen.
  store: z.boolean().nullish(),
  previous_response_id: z.string().nullish(),
});

/** A message item (`type` may be absent when `role` is present). */
export const MessageItemSchema = z.looseObject({
  type: z.literal("message").optional(),
  role: z.enum(["user", "assistant", "system", "developer"]),
  content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))], {
    error: "must be a string or an array of content parts",
  }),
});

/** input_text / output_text / text parts. */
export const TextContentSchema = z.looseObject({ type: z.string(), text: z.string() });

/** A refusal part an assistant message may carry. */
export const RefusalContentSchema = z.looseObject({ type: z.literal("refusal"), refusal: z.string() });

/** An image part: by URL / data URL, or by file id (which a stateless gateway cannot resolve). */
export const ImageContentSchema = z.looseObject({
  type: z.literal("input_image"),
  image_url: z.string().nullish(),
  file_id: z.string().nullish(),
  detail: z.string().nullish(),
});

/** A tool call the model made, replayed by the client. */
export const FunctionCallItemSchema = z.looseObject({
  type: z.literal("function_call"),
  call_id: z.string().min(1),
  name: z.string().min(1),
  arguments: z.string(),
});

/** The client's result for one function call. */
export const FunctionCallOutputItemSchema = z.looseObject({
  type: z.literal("function_call_output"),
  call_id: z.string().min(1),
  output: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))], {
    error: "must be a string or an array of content parts",
  }),
});

/** A reasoning item replayed by the client (summary text and, when asked for, encrypted content). */
export const ReasoningItemSchema = z.looseObject({
  type: z.literal("reasoning"),
  id: z.string().nullish(),
  summary: z.array(z.looseObject({ type: z.string(), text: z.string() })).nullish(),
  encrypted_content: z.string().nullish(),
});

/** A flat function tool. */
export const FunctionToolSchema = z.looseObject({
  type: z.literal("function"),
  name: z.string().min(1),
  description: z.string().nullish(),
  parameters: z.record(z.string(), z.unknown()).nullish(),
  strict: z.boolean().nullish(),
});

/** A specific-function tool choice. */
export const FunctionToolChoiceSchema = z.looseObject({
  type: z.literal("function"),
  name: z.string().min(1),
});

/** The upstream's non-stream response object; output items are read one by one. */
export const ResponseObjectSchema = z.looseObject({
  id: z.string(),
  model: z.string().nullish(),
  created_at: z.number().nullish(),
  status: z.string().nullish(),
  output: z.array(z.unknown()),
});
