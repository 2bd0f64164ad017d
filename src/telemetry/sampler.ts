/**
 * Head sampling as `OTEL_TRACES_SAMPLER` names it: `always_on`, `always_off`, `traceidratio`,
 * `parentbased_always_on` (the OpenTelemetry default), `parentbased_always_off` and
 * `parentbased_traceidratio`. The ratio is decided from the trace id alone, so every process that sees
 * the same trace (another gateway worker, the provider) decides the same way: the rightmost 56 bits of
 * the id are compared with a threshold, as the OpenTelemetry TraceIdRatioBased sampler specifies
 * (W3C Trace Context level 2 makes those bits random).
 */
import { FLAG_SAMPLED, type TraceContext } from "./trace_context.ts";

/** The sampler names `OTEL_TRACES_SAMPLER` accepts. */
export const SAMPLER_NAMES = [
  "always_on",
  "always_off",
  "traceidratio",
  "parentbased_always_on",
  "parentbased_always_off",
  "parentbased_traceidratio",
] as const;

/** One of the sampler names. */
export type SamplerName = (typeof SAMPLER_NAMES)[number];

/** Decides at the start of a trace whether its spans are recorded and exported. */
export interface Sampler {
  /** True to record. `parent` is the incoming (or enclosing) context, null for a new trace. */
  shouldSample(parent: TraceContext | null, traceId: string): boolean;
  /** A readable name, e.g. `ParentBased{root=TraceIdRatioBased{0.25}}`. */
  readonly description: string;
}

const TWO_56 = 1n << 56n;

/** Samples a fraction of traces, decided from the trace id. */
export function traceIdRatioSampler(ratio: number): Sampler {
  const p = Number.isFinite(ratio) ? Math.min(1, Math.max(0, ratio)) : 1;
  // Rejection threshold: ids whose low 56 bits are at or above it are kept, so p = 1 keeps all.
  const threshold = TWO_56 - BigInt(Math.round(p * Number(TWO_56)));
  return {
    description: `TraceIdRatioBased{${p}}`,
    shouldSample: (_parent, traceId) => BigInt(`0x${traceId.slice(18)}`) >= threshold,
  };
}

const ALWAYS_ON: Sampler = { description: "AlwaysOnSampler", shouldSample: () => true };
const ALWAYS_OFF: Sampler = { description: "AlwaysOffSampler", shouldSample: () => false };

/**
 * Follows the parent's sampled flag when there is a parent, and asks `root` otherwise. The local and
 * remote parent cases both follow the flag (the specification's defaults).
 */
export function parentBasedSampler(root: Sampler): Sampler {
  return {
    description: `ParentBased{root=${root.description}}`,
    shouldSample: (parent, traceId) =>
      parent === null ? root.shouldSample(null, traceId) : (parent.flags & FLAG_SAMPLED) !== 0,
  };
}

/** The sampler a name and argument describe; the ratio defaults to 1.0 as the specification says. */
export function createSampler(name: SamplerName, arg?: number): Sampler {
  const ratio = arg === undefined || !Number.isFinite(arg) || arg < 0 || arg > 1 ? 1 : arg;
  switch (name) {
    case "always_on":
      return ALWAYS_ON;
    case "always_off":
      return ALWAYS_OFF;
    case "traceidratio":
      return traceIdRatioSampler(ratio);
    case "parentbased_always_on":
      return parentBasedSampler(ALWAYS_ON);
    case "parentbased_always_off":
      return parentBasedSampler(ALWAYS_OFF);
    case "parentbased_traceidratio":
      return parentBasedSampler(traceIdRatioSampler(ratio));
  }
}
