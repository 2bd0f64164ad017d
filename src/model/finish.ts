/** Why generation stopped, normalised across formats. */
export type UnifiedFinish = "stop" | "length" | "tool_calls" | "content_filter" | "error" | "other";

/** A finish reason with the upstream's own value kept beside the normalised one. */
export interface Finish {
  readonly unified: UnifiedFinish;
  /** The value the upstream sent (`end_turn`, `STOP`, `length`…), or null when it sent none. */
  readonly raw: string | null;
}

/** The finish reason synthesised when an upstream ends without one. */
export const SYNTHETIC_STOP: Finish = { unified: "stop", raw: null };
