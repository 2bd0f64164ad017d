/** Stream plumbing and an event collector shared by the local-runner tests. */
import type { Frame } from "../../../src/wire/framing/mod.ts";

export { collectResponse as collect, run as pipe } from "../../helpers/collect.ts";

/** One NDJSON frame per object. */
export function frames(...lines: readonly unknown[]): Frame[] {
  return lines.map((line) => ({ data: typeof line === "string" ? line : JSON.stringify(line) }));
}
