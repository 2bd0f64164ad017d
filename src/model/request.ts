import type { Extra } from "./extra.ts";
import type { CacheControl, Part, TextPart } from "./parts.ts";
import type { GatewayWarning } from "./warning.ts";
import type { WireFormat } from "./wire_format.ts";

/** Conversation roles. System text lives in `NeutralRequest.system`, never in messages. */
export type Role = "user" | "assistant" | "tool";

/** One conversation turn. Tool results travel in `tool` messages, one or more per message. */
export interface Message {
  readonly role: Role;
  readonly parts: readonly Part[];
  /** OpenAI's optional participant name. */
  readonly name?: string;
  readonly extra?: Extra;
}

/** A function tool the model may call. `parameters` is a JSON schema object. */
export interface ToolDefinition {
  readonly name: string;
  readonly description?: string;
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly cacheControl?: CacheControl;
  readonly extra?: Extra;
}

/** How the model may use tools. */
export type ToolChoice =
  | { readonly type: "auto" }
  | { readonly type: "none" }
  | { readonly type: "required" }
  | { readonly type: "tool"; readonly name: string };

/** Reasoning effort levels across formats (each codec maps to its own vocabulary). */
export type ReasoningEffort = "none" | "minimal" | "low" | "medium" | "high" | "xhigh";

/** What the client asked for in terms of reasoning; either a level, a token budget, or both. */
export interface ReasoningIntent {
  readonly effort?: ReasoningEffort;
  readonly budgetTokens?: number;
  /** Whether the client wants reasoning text returned (Gemini includeThoughts, Ollama think). */
  readonly includeThoughts?: boolean;
}

/** Sampling and length parameters shared by every format. */
export interface GenerationParams {
  readonly maxTokens?: number;
  readonly temperature?: number;
  readonly topP?: number;
  readonly topK?: number;
  readonly stop?: readonly string[];
  readonly seed?: number;
  readonly presencePenalty?: number;
  readonly frequencyPenalty?: number;
}

/** The request in the middle: every client format decodes to it, every upstream format encodes from it. */
export interface NeutralRequest {
  /** The model string as the client sent it (`<prefix>/<model>` or a combo name). */
  readonly model: string;
  readonly system: readonly TextPart[];
  readonly messages: readonly Message[];
  readonly tools: readonly ToolDefinition[];
  readonly toolChoice?: ToolChoice;
  readonly params: GenerationParams;
  readonly reasoning?: ReasoningIntent;
  readonly stream: boolean;
  /** The format the request was decoded from. */
  readonly source: WireFormat;
  /** Top-level fields the decoder did not map. */
  readonly extra?: Extra;
  /**
   * What the client's own decoder already knew it could not keep (legacy completions' `suffix`); the
   * request's answer carries them beside the upstream's.
   */
  readonly warnings?: readonly GatewayWarning[];
}
