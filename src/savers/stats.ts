import type { SaverName } from "./types.ts";

/** What the pipeline reports for each saver on each request. */
export interface SaverStatEvent {
  readonly saver: SaverName;
  readonly bytesBefore: number;
  readonly bytesAfter: number;
  /** The saver returned a different request. */
  readonly changed: boolean;
  /** The saver threw; the request went on unchanged. */
  readonly failed: boolean;
}

/** Accumulated savings of one saver (in memory; the caller decides where it lives). */
export interface SaverStats {
  readonly saver: SaverName;
  readonly requests: number;
  readonly bytesBefore: number;
  readonly bytesAfter: number;
  readonly errors: number;
}

/** Zeroed stats for a saver. */
export function emptySaverStats(saver: SaverName): SaverStats {
  return { saver, requests: 0, bytesBefore: 0, bytesAfter: 0, errors: 0 };
}

/** Adds one event to a saver's stats (every request counts, changed or not). */
export function mergeStat(stats: SaverStats | undefined, event: SaverStatEvent): SaverStats {
  const base = stats ?? emptySaverStats(event.saver);
  return {
    saver: base.saver,
    requests: base.requests + 1,
    bytesBefore: base.bytesBefore + event.bytesBefore,
    bytesAfter: base.bytesAfter + event.bytesAfter,
    errors: base.errors + (event.failed ? 1 : 0),
  };
}

/** Bytes saved and the share of the input they represent (0 when nothing was measured). */
export function savings(stats: SaverStats): { savedBytes: number; percent: number } {
  const savedBytes = Math.max(0, stats.bytesBefore - stats.bytesAfter);
  return { savedBytes, percent: stats.bytesBefore > 0 ? (savedBytes / stats.bytesBefore) * 100 : 0 };
}
