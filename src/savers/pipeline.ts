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
 */
export async function runSavers(
  request: NeutralRequest,
  savers: readonly Saver[],
  ctx: SaverContext,
  onStat: (event: SaverStatEvent) => void,
  onError: SaverErrorHandler = () => {},
): Promise<NeutralRequest> {
  let current = request;
  // Requests are immutable, so the size before a saver can still be measured after it ran; the size
  // after one saver is reused as the size before the next.
  let currentBytes: number | undefined;
  const ordered = inPipelineOrder(savers);
  // An index loop: in an async function a for…of iterator is allocated for real on every call.
  for (let i = 0; i < ordered.length; i++) {
    const saver = ordered[i];
    let next: NeutralRequest;
    try {
      // Local savers answer synchronously; awaiting only real promises spares them a microtask turn.
      const result = saver.apply(current, ctx);
      next = result instanceof Promise ? await result : result;
    } catch (error) {
      onError(saver.name, error);
      onStat({ saver: saver.name, bytesBefore: 0, bytesAfter: 0, changed: false, failed: true });
      continue;
    }
    if (next === current) {
      onStat(UNCHANGED[saver.name]);
      continue;
    }
    const bytesBefore = currentBytes ?? promptBytes(current);
    const bytesAfter = promptBytes(next);
    onStat({ saver: saver.name, bytesBefore, bytesAfter, changed: true, failed: false });
    current = next;
    currentBytes = bytesAfter;
  }
  return current;
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
