import { GatewayError } from "../../model/errors.ts";

/**
 * Largest event (its data lines together, or any one line) an upstream may send, in characters. Model
 * events are kilobytes; a whole answer in one event stays far below this; an upstream that never ends a
 * line must not grow the gateway's memory without bound.
 */
export const MAX_EVENT_CHARS = 16 * 1024 * 1024;

/** Options of a framer. */
export interface FramingOptions {
  /** Largest event or line accepted, in characters (default MAX_EVENT_CHARS). */
  readonly maxEventChars?: number;
  /** Adds the characters searched for line ends: work counted for tests, not timed. */
  readonly scanned?: (chars: number) => void;
}

/** The error for an upstream event or line beyond the limit. */
export function overlongEvent(limit: number): GatewayError {
  return new GatewayError(
    502,
    "upstream",
    `The upstream sent an over-long event: more than ${limit} characters in one event or line`,
  );
}
