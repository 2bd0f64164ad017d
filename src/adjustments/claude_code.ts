import type { Message, NeutralRequest, Part, TextPart } from "../model/mod.ts";
import type { AdjustTarget } from "./target.ts";

/**
 * The `anthropic-beta` values a request carries in its body (`betas`, string or list, kept by the
 * messages decoder as an extra field). The messages API takes them as a header only.
 */
export function betasFor(request: NeutralRequest): string[] {
  if (request.extra?.format !== "messages") return [];
  const raw = request.extra.fields.betas;
  const list = typeof raw === "string" ? raw.split(",") : Array.isArray(raw) ? raw : [];
  return [
    ...new Set(list.filter((b): b is string => typeof b === "string").map((b) => b.trim()).filter(Boolean)),
  ];
}

function withoutBetas(request: NeutralRequest): NeutralRequest {
  if (request.extra?.format !== "messages" || !("betas" in request.extra.fields)) return request;
  const { betas: _, ...fields } = request.extra.fields;
  if (Object.keys(fields).length > 0) return { ...request, extra: { format: "messages", fields } };
  const { extra: _extra, ...rest } = request;
  return rest;
}

/** Later system blocks repeating an earlier one verbatim; a block holding a cache breakpoint stays. */
function mergeDuplicateSystem(system: readonly TextPart[]): readonly TextPart[] {
  const seen = new Set<string>();
  const out = system.filter((part) => {
    const duplicate = seen.has(part.text);
    seen.add(part.text);
    return !duplicate || part.cacheControl !== undefined;
  });
  return out.length === system.length ? system : out;
}

// Anthropic verifies thinking blocks by their signature; an unsigned or foreign-signed one is rejected.
function invalidThinking(part: Part): boolean {
  if (part.kind !== "reasoning") return false;
  if (part.family !== undefined && part.family !== "anthropic") return true;
  return part.signature === undefined && part.redactedData === undefined;
}

function dropInvalidThinking(message: Message): Message {
  if (message.role !== "assistant" || !message.parts.some(invalidThinking)) return message;
  const parts = message.parts.filter((part) => !invalidThinking(part));
  // An empty assistant turn would be rejected too; leave such a turn to the encoder.
  return parts.length === 0 ? message : { ...message, parts };
}

/**
 * For Claude Code clients going to a messages upstream: moves body `betas` out (they go in the
 * `anthropic-beta` header, see betasFor), merges repeated system blocks, and drops thinking blocks the
 * API would reject (unsigned, or signed by another provider family).
 */
export function normalizeClaudeCode(request: NeutralRequest, target: AdjustTarget): NeutralRequest {
  if (target.clientKind !== "claude_code" || target.upstreamFormat !== "messages") return request;
  let next = withoutBetas(request);
  const system = mergeDuplicateSystem(next.system);
  if (system !== next.system) next = { ...next, system };
  let changed = false;
  const messages = next.messages.map((message) => {
    const fixed = dropInvalidThinking(message);
    changed ||= fixed !== message;
    return fixed;
  });
  return changed ? { ...next, messages } : next;
}
