import type { NeutralRequest } from "../model/mod.ts";
import { promptBytes } from "./measure.ts";
import type { SaverStatEvent } from "./stats.ts";
import { SAVER_ORDER } from "./types.ts";
import type { Saver, SaverContext, SaverName } from "./types.ts";

/** Called once per failing saver with the saver's name and what it threw. */
export type SaverErrorHandler = (saver: SaverName, error: unknown) => void;

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
  const ordered = [...savers].sort((a, b) => SAVER_ORDER.indexOf(a.name) - SAVER_ORDER.indexOf(b.name));
  let current = request;
  // Requests are immutable, so the size before a saver can still be measured after it ran; the size
  // after one saver is reused as the size before the next.
  let currentBytes: number | undefined;
  for (const saver of ordered) {
    let next: NeutralRequest;
    try {
      next = await saver.apply(current, ctx);
    } catch (error) {
      onError(saver.name, error);
      onStat({ saver: saver.name, bytesBefore: 0, bytesAfter: 0, changed: false, failed: true });
      continue;
    }
    if (next === current) {
      onStat({ saver: saver.name, bytesBefore: 0, bytesAfter: 0, changed: false, failed: false });
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
