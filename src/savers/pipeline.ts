import type { NeutralRequest } from "../model/mod.ts";
import { promptBytes } from "./measure.ts";
import type { SaverStatEvent } from "./stats.ts";
import { SAVER_ORDER } from "./types.ts";
import type { Saver, SaverContext, SaverName } from "./types.ts";

/** Called once per failing saver with the saver's name and what it threw. */
export type SaverErrorHandler = (saver: SaverName, error: unknown) => void;

function unchanged(saver: SaverName): SaverStatEvent {
  return { saver, bytesBefore: 0, bytesAfter: 0, changed: false, failed: false };
}

/** The event of a saver that left the request alone: one shared object per saver (events are read-only). */
const UNCHANGED: Readonly<Record<SaverName, SaverStatEvent>> = {
  headroom: unchanged("headroom"),
  rtk: unchanged("rtk"),
  caveman: unchanged("caveman"),
  ponytail: unchanged("ponytail"),
};

/**
 * Runs the savers in the fixed order (Headroom → RTK → Caveman → Ponytail, whatever order they were
 * given in). Each is fail-safe: a throw is reported and the request continues as it was before that
 * saver. Every saver that runs produces one stat event. Sizes are measured only when a saver changed
 * the request (serialising every request would cost more than most savers save); an unchanged request
 * counts with zero bytes on both sides, so byte totals describe exactly what the savers touched.
 * The result is a promise only when some saver answered with one: local savers answer synchronously,
 * and a promise would cost every request a microtask turn.
 */
export function runSavers(
  request: NeutralRequest,
  savers: readonly Saver[],
  ctx: SaverContext,
  onStat: (event: SaverStatEvent) => void,
  onError: SaverErrorHandler = () => {},
): NeutralRequest | Promise<NeutralRequest> {
  return new SaverRun(request, inPipelineOrder(savers), ctx, onStat, onError).from(0);
}

/** One pass of the pipeline over one request. */
class SaverRun {
  current: NeutralRequest;
  // Requests are immutable, so the size before a saver can still be measured after it ran; the size
  // after one saver is reused as the size before the next.
  currentBytes: number | undefined;

  constructor(
    request: NeutralRequest,
    readonly savers: readonly Saver[],
    readonly ctx: SaverContext,
    readonly onStat: (event: SaverStatEvent) => void,
    readonly onError: SaverErrorHandler,
  ) {
    this.current = request;
  }

  /** Runs the savers from `start` on, synchronously until one answers with a promise. */
  from(start: number): NeutralRequest | Promise<NeutralRequest> {
    for (let i = start; i < this.savers.length; i++) {
      const saver = this.savers[i];
      let result: NeutralRequest | Promise<NeutralRequest>;
      try {
        result = saver.apply(this.current, this.ctx);
      } catch (error) {
        this.failed(saver, error);
        continue;
      }
      if (result instanceof Promise) return this.resume(saver, result, i);
      this.settle(saver, result);
    }
    return this.current;
  }

  async resume(saver: Saver, pending: Promise<NeutralRequest>, index: number): Promise<NeutralRequest> {
    try {
      this.settle(saver, await pending);
    } catch (error) {
      this.failed(saver, error);
    }
    return await this.from(index + 1);
  }

  settle(saver: Saver, next: NeutralRequest): void {
    if (next === this.current) {
      this.onStat(UNCHANGED[saver.name]);
      return;
    }
    const bytesBefore = this.currentBytes ?? promptBytes(this.current);
    const bytesAfter = promptBytes(next);
    this.onStat({ saver: saver.name, bytesBefore, bytesAfter, changed: true, failed: false });
    this.current = next;
    this.currentBytes = bytesAfter;
  }

  failed(saver: Saver, error: unknown): void {
    this.onError(saver.name, error);
    this.onStat({ saver: saver.name, bytesBefore: 0, bytesAfter: 0, changed: false, failed: true });
  }
}

/** `savers` sorted by SAVER_ORDER; buildSavers already returns that order, which then costs no copy. */
function inPipelineOrder(savers: readonly Saver[]): readonly Saver[] {
  for (let i = 1; i < savers.length; i++) {
    if (rank(savers[i - 1]) > rank(savers[i])) return [...savers].sort((a, b) => rank(a) - rank(b));
  }
  return savers;
}

function rank(saver: Saver): number {
  return SAVER_ORDER.indexOf(saver.name);
}
