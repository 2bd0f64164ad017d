/**
 * Splitting an embeddings request that holds more inputs than an upstream takes in one call, and merging
 * the answers back in input order. Pure: dispatch runs the calls (in any order, in parallel) and hands the
 * answers here with the offset each call started at.
 */
import type {
  EmbeddingsUsage,
  NeutralEmbeddingsRequest,
  NeutralEmbeddingsResponse,
} from "../../model/mod.ts";
import { GatewayError } from "../../model/mod.ts";

/** One upstream call's share of a list: the items and the position of the first in the whole list. */
export interface Batch<T> {
  readonly start: number;
  readonly items: readonly T[];
}

/** `items` in consecutive batches of at most `maxPerCall` (at least 1), in order; none for an empty list. */
export function splitBatches<T>(items: readonly T[], maxPerCall: number): Batch<T>[] {
  // A limit below one (a misconfigured preset) would loop forever; one input per call still answers.
  const size = Math.max(1, Math.floor(Number.isFinite(maxPerCall) ? maxPerCall : items.length || 1));
  const out: Batch<T>[] = [];
  for (let start = 0; start < items.length; start += size) {
    out.push({ start, items: items.slice(start, start + size) });
  }
  return out;
}

/**
 * The items of every batch placed at their offsets, as one list of `total` items. Batches may come in any
 * order; a gap, an overlap or a batch past the end is a bug in the caller and throws.
 */
export function mergeInOrder<T>(batches: readonly Batch<T>[], total: number): T[] {
  const out = new Array<T>(total);
  const filled = new Uint8Array(total);
  for (const batch of batches) {
    if (batch.start < 0 || batch.start + batch.items.length > total) {
      throw new RangeError(`batch at ${batch.start} with ${batch.items.length} items is outside 0..${total}`);
    }
    for (let i = 0; i < batch.items.length; i++) {
      if (filled[batch.start + i] === 1) throw new RangeError(`item ${batch.start + i} is in two batches`);
      filled[batch.start + i] = 1;
      out[batch.start + i] = batch.items[i];
    }
  }
  const missing = filled.indexOf(0);
  if (missing !== -1) throw new RangeError(`item ${missing} is in no batch`);
  return out;
}

/** An embeddings request as the requests of its upstream calls, each with the offset of its first input. */
export function splitEmbeddingsRequest(
  request: NeutralEmbeddingsRequest,
  maxInputsPerCall: number,
): { readonly start: number; readonly request: NeutralEmbeddingsRequest }[] {
  const batches = splitBatches(request.inputs, maxInputsPerCall);
  if (batches.length === 1) return [{ start: 0, request }];
  return batches.map((batch) => ({ start: batch.start, request: { ...request, inputs: batch.items } }));
}

/**
 * The answers of a split request as one answer: vectors in input order, usage summed. Usage is absent when
 * any call reported none (the gateway then estimates the whole request rather than mix counts); an answer
 * with a different number of vectors than its call's inputs is the upstream's fault (502).
 */
export function mergeEmbeddingsResponses(
  parts: readonly {
    readonly start: number;
    readonly inputs: number;
    readonly response: NeutralEmbeddingsResponse;
  }[],
  total: number,
): NeutralEmbeddingsResponse {
  if (parts.length === 0) throw new RangeError("no answers to merge");
  let inputTokens = 0;
  let reported = true;
  let estimated = false;
  for (const part of parts) {
    if (part.response.vectors.length !== part.inputs) {
      throw new GatewayError(
        502,
        "upstream",
        `Upstream answered ${part.response.vectors.length} embeddings for ${part.inputs} inputs`,
      );
    }
    if (part.response.usage === undefined) reported = false;
    else {
      inputTokens += part.response.usage.inputTokens;
      estimated ||= part.response.usage.estimated === true;
    }
  }
  const vectors = mergeInOrder(parts.map((p) => ({ start: p.start, items: p.response.vectors })), total);
  const first = [...parts].sort((a, b) => a.start - b.start)[0].response;
  const usage: EmbeddingsUsage | undefined = reported
    ? (estimated ? { inputTokens, estimated } : { inputTokens })
    : undefined;
  return usage === undefined ? { model: first.model, vectors } : { model: first.model, vectors, usage };
}
