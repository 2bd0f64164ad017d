import { join } from "node:path";

/**
 * Where a serving gateway says which address it listens on: `--port`/`--host` may differ from the file,
 * and `gateway doctor` checks the address actually served. Removed on a clean stop; a record whose process
 * is gone is stale (a crash) and is reported as such.
 */
export interface ListenRecord {
  readonly url: string;
  readonly pid: number;
  readonly startedAt: number;
}

const FILE = "listening.json";

/** Writes the record of this process (workers of one gateway write the same address). */
export function writeListenRecord(home: string, record: ListenRecord): void {
  Deno.writeTextFileSync(join(home, FILE), JSON.stringify(record), { mode: 0o600 });
}

/** Removes the record if it is still this process's. */
export function removeListenRecord(home: string, pid: number): void {
  if (readListenRecord(home)?.pid !== pid) return;
  try {
    Deno.removeSync(join(home, FILE));
  } catch {
    // Already gone: nothing to clean up.
  }
}

/** The record, or null when there is none or it cannot be read. */
export function readListenRecord(home: string): ListenRecord | null {
  try {
    const value = JSON.parse(Deno.readTextFileSync(join(home, FILE))) as Partial<ListenRecord>;
    if (typeof value.url !== "string" || typeof value.pid !== "number") return null;
    return { url: value.url, pid: value.pid, startedAt: Number(value.startedAt ?? 0) };
  } catch {
    return null;
  }
}

/** Whether a process with this id is running (Linux: /proc; elsewhere assumed running). */
export function processAlive(pid: number): boolean {
  if (Deno.build.os !== "linux") return true;
  try {
    Deno.statSync(`/proc/${pid}`);
    return true;
  } catch {
    return false;
  }
}
