import type { Frame } from "../framing/frame.ts";
import { isRecord, tryParseJson } from "../shared/mod.ts";
import { StreamStage } from "../shared/stream_stage.ts";

/** Which command-line assistant the envelope speaks for; the two differ in a few envelope fields. */
export type CloudCodeClient = "gemini-cli" | "antigravity";

/** What a call adds around a generate-content body (ids come from the caller: this module is pure). */
export interface EnvelopeFields {
  readonly client: CloudCodeClient;
  readonly model: string;
  /** The Cloud Code project found at sign-in; absent for token counting, which takes none. */
  readonly project?: string;
  readonly requestId: string;
  readonly sessionId?: string;
}

/**
 * Thinking keys some clients put at the body's root. `v1internal` rejects unknown root keys inside
 * `request`; `thinkingConfig` has a home in `generationConfig`, the others have none and are dropped.
 */
const ROOT_THINKING_KEYS = [
  "output_config",
  "thinking",
  "reasoning_effort",
  "reasoning",
  "enable_thinking",
  "thinking_budget",
  "thinkingConfig",
] as const;

/** The generate-content body with root-level thinking keys moved into generationConfig or dropped. */
export function withoutRootThinking(body: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...body };
  for (const key of ROOT_THINKING_KEYS) delete out[key];
  const rootConfig = body.thinkingConfig;
  if (isRecord(rootConfig)) {
    const generation = isRecord(out.generationConfig) ? { ...out.generationConfig } : {};
    // A thinkingConfig already inside generationConfig is the more specific one and wins.
    if (generation.thinkingConfig === undefined) generation.thinkingConfig = rootConfig;
    out.generationConfig = generation;
  }
  return out;
}

/**
 * Wraps a generate-content body for `v1internal:{generateContent,streamGenerateContent,countTokens}`:
 * `{project, model, userAgent, requestId, request: {…body, sessionId}}`, plus `requestType: "agent"`
 * for Antigravity. The model travels in the envelope, never in the URL.
 */
export function wrapRequest(
  body: Readonly<Record<string, unknown>>,
  fields: EnvelopeFields,
): Record<string, unknown> {
  const request = withoutRootThinking(body);
  delete request.model;
  if (fields.sessionId !== undefined) request.sessionId = fields.sessionId;
  return {
    ...(fields.project !== undefined ? { project: fields.project } : {}),
    model: fields.model,
    userAgent: fields.client,
    ...(fields.client === "antigravity" ? { requestType: "agent" } : {}),
    requestId: fields.requestId,
    request,
  };
}

/** `{response: {…}, traceId}` → the inner generate-content response; other values pass unchanged. */
export function unwrapResponse(json: unknown): unknown {
  return isRecord(json) && isRecord(json.response) ? json.response : json;
}

/**
 * Unwraps every SSE frame of a `streamGenerateContent` answer, so the generate-content stream decoder
 * sees plain responses. Frames that are not JSON (a `[DONE]`, a comment) pass unchanged.
 */
export function unwrapFrames(): StreamStage<Frame, Frame> {
  return new StreamStage<Frame, Frame>({
    transform(frame, out) {
      const json = tryParseJson(frame.data);
      if (!isRecord(json) || !isRecord(json.response)) return out.enqueue(frame);
      const data = JSON.stringify(json.response);
      out.enqueue(frame.event === undefined ? { data } : { event: frame.event, data });
    },
  });
}
