import { z } from "zod";
import { MAX_TOOLS, TOOLS_TOO_MANY } from "../shared/limits.ts";
import { camelKeys } from "./key_case.ts";

/** One object level of the Gemini API, accepting snake_case keys and keeping unknown fields. */
function level<T extends z.ZodRawShape>(shape: T) {
  return z.preprocess(camelKeys, z.looseObject(shape));
}

const jsonObject = z.record(z.string(), z.unknown());

/** A content part: exactly one data field (text, inlineData, fileData, functionCall, functionResponse). */
export const partSchema = level({
  text: z.string().optional(),
  thought: z.boolean().optional(),
  thoughtSignature: z.string().optional(),
  inlineData: level({ mimeType: z.string(), data: z.string() }).optional(),
  fileData: level({ fileUri: z.string(), mimeType: z.string().optional() }).optional(),
  functionCall: level({ name: z.string(), args: jsonObject.optional(), id: z.string().optional() })
    .optional(),
  functionResponse: level({ name: z.string(), response: jsonObject.optional(), id: z.string().optional() })
    .optional(),
});

/** A Gemini part as parsed (unknown fields kept). */
export type GeminiPart = z.infer<typeof partSchema>;

/** One conversation turn. */
export const contentSchema = level({
  role: z.string().optional(),
  parts: z.array(partSchema).optional(),
});

/** A Gemini content as parsed. */
export type GeminiContent = z.infer<typeof contentSchema>;

const thinkingConfigSchema = level({
  thinkingBudget: z.number().int().optional(),
  includeThoughts: z.boolean().optional(),
  thinkingLevel: z.string().optional(),
});

/** generationConfig; fields the neutral model has no place for stay as unknown keys. */
export const generationConfigSchema = level({
  maxOutputTokens: z.number().int().optional(),
  temperature: z.number().optional(),
  topP: z.number().optional(),
  topK: z.number().optional(),
  stopSequences: z.array(z.string()).optional(),
  seed: z.number().int().optional(),
  presencePenalty: z.number().optional(),
  frequencyPenalty: z.number().optional(),
  thinkingConfig: thinkingConfigSchema.optional(),
});

/** A function declaration; `parameters` (OpenAPI subset) or `parametersJsonSchema` (full JSON schema). */
export const functionDeclarationSchema = level({
  name: z.string(),
  description: z.string().optional(),
  parameters: jsonObject.optional(),
  parametersJsonSchema: jsonObject.optional(),
});

/** One entry of `tools[]`: function declarations and/or built-in tools (googleSearch, codeExecution). */
export const toolSchema = level({
  functionDeclarations: z.array(functionDeclarationSchema).max(MAX_TOOLS, TOOLS_TOO_MANY).optional(),
});

/** toolConfig with its functionCallingConfig. */
export const toolConfigSchema = level({
  functionCallingConfig: level({
    mode: z.string().optional(),
    allowedFunctionNames: z.array(z.string()).optional(),
  }).optional(),
});

/** The generateContent request body (the model is in the URL). */
export const requestSchema = level({
  contents: z.array(contentSchema),
  systemInstruction: contentSchema.optional(),
  generationConfig: generationConfigSchema.optional(),
  tools: z.array(toolSchema).optional(),
  toolConfig: toolConfigSchema.optional(),
});

/** The generateContent request as parsed. */
export type GeminiRequest = z.infer<typeof requestSchema>;

/** usageMetadata of a response or stream chunk. */
export const usageMetadataSchema = level({
  promptTokenCount: z.number().optional(),
  candidatesTokenCount: z.number().optional(),
  totalTokenCount: z.number().optional(),
  cachedContentTokenCount: z.number().optional(),
  thoughtsTokenCount: z.number().optional(),
  toolUsePromptTokenCount: z.number().optional(),
});

/** usageMetadata as parsed. */
export type GeminiUsage = z.infer<typeof usageMetadataSchema>;

/** One candidate answer. */
export const candidateSchema = level({
  content: contentSchema.optional(),
  finishReason: z.string().optional(),
  index: z.number().optional(),
});

/** A GenerateContentResponse (a whole answer or one stream chunk). */
export const responseSchema = level({
  candidates: z.array(candidateSchema).optional(),
  usageMetadata: usageMetadataSchema.optional(),
  promptFeedback: level({ blockReason: z.string().optional() }).optional(),
  modelVersion: z.string().optional(),
  responseId: z.string().optional(),
});

/** A GenerateContentResponse as parsed. */
export type GeminiResponse = z.infer<typeof responseSchema>;
