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
 * saver. Every saver that runs produces one stat event.
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
  // Serialising a large request is the costly part; reuse the size while the request is unchanged.
  let currentBytes: number | undefined;
  for (const saver of ordered) {
    const bytesBefore = currentBytes ?? promptBytes(current);
    let next: NeutralRequest;
    try {
      next = await saver.apply(current, ctx);
    } catch (error) {
      onError(saver.name, error);
      onStat({ saver: saver.name, bytesBefore, bytesAfter: bytesBefore, changed: false, failed: true });
      currentBytes = bytesBefore;
      continue;
    }
    const changed = next !== current;
    const bytesAfter = changed ? promptBytes(next) : bytesBefore;
    onStat({ saver: saver.name, bytesBefore, bytesAfter, changed, failed: false });
    current = next;
    currentBytes = bytesAfter;
  }
  return current;
}
