/**
 * Token usage in the spec's invariant: `inputTotal` is the whole prompt, and `cacheRead` and
 * `cacheWrite` are subsets of it. `reasoning` is a subset of `output`.
 */
export interface Usage {
  readonly inputTotal: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  readonly output: number;
  readonly reasoning: number;
  /** True when the gateway counted the tokens itself because the upstream reported none. */
  readonly estimated?: boolean;
}

/** Usage with every count zero. */
export const ZERO_USAGE: Usage = { inputTotal: 0, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0 };

/** Input tokens billed at the plain input rate: the total less both cache buckets, never negative. */
export function uncachedInput(usage: Usage): number {
  return Math.max(usage.inputTotal - usage.cacheRead - usage.cacheWrite, 0);
}

/** Merges a later usage report into an earlier one; later non-zero values win per field. */
export function mergeUsage(earlier: Usage, later: Partial<Usage>): Usage {
  return {
    inputTotal: later.inputTotal || earlier.inputTotal,
    cacheRead: later.cacheRead || earlier.cacheRead,
    cacheWrite: later.cacheWrite || earlier.cacheWrite,
    output: later.output || earlier.output,
    reasoning: later.reasoning || earlier.reasoning,
    estimated: later.estimated ?? earlier.estimated,
  };
}
