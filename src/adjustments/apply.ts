import type { GatewayWarning, NeutralRequest } from "../model/mod.ts";
import { betasFor, normalizeClaudeCode } from "./claude_code.ts";
import { dedupeTools } from "./dedupe_tools.ts";
import { injectReasoningContent } from "./reasoning_content.ts";
import { stripUnsupportedImages } from "./strip_images.ts";
import type { AdjustTarget } from "./target.ts";
import { applyThinkingIntent } from "./thinking_intent.ts";

/**
 * A per-attempt adjustment: returns the same request when it does not apply, and reports through `warn`
 * what the change lost for the client (most adjustments lose nothing and ignore it).
 */
export type Adjustment = (
  request: NeutralRequest,
  target: AdjustTarget,
  warn: (warning: GatewayWarning) => void,
) => NeutralRequest;

/** The synchronous adjustments, in the order they run. */
export const ADJUSTMENTS: readonly (readonly [string, Adjustment])[] = [
  ["thinking_intent", applyThinkingIntent],
  ["strip_images", stripUnsupportedImages],
  ["reasoning_content", injectReasoningContent],
  ["claude_code", normalizeClaudeCode],
  ["dedupe_tools", dedupeTools],
];

/** An adjusted request, the extra upstream headers it needs, which adjustments changed something and what they lost. */
export interface AdjustedRequest {
  readonly request: NeutralRequest;
  readonly headers: Readonly<Record<string, string>>;
  readonly applied: readonly string[];
  readonly warnings: readonly GatewayWarning[];
}

/**
 * Runs the per-attempt adjustments in a fixed order. Image prefetch is async and separate: call
 * imagesToPrefetch/prefetchImages on the result, so images stripped here are never downloaded.
 * `headers` holds `anthropic-beta` when the body carried betas for a messages upstream; the caller
 * merges it with the client's own header.
 */
export function applyAdjustments(request: NeutralRequest, target: AdjustTarget): AdjustedRequest {
  const headers: Record<string, string> = {};
  if (target.upstreamFormat === "messages") {
    const betas = betasFor(request);
    if (betas.length > 0) headers["anthropic-beta"] = betas.join(",");
  }
  const applied: string[] = [];
  const warnings: GatewayWarning[] = [];
  const warn = (w: GatewayWarning) => warnings.push(w);
  let current = request;
  for (const [name, adjust] of ADJUSTMENTS) {
    const next = adjust(current, target, warn);
    if (next !== current) applied.push(name);
    current = next;
  }
  return { request: current, headers, applied, warnings };
}
