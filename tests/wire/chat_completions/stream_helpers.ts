/** Test helpers: run frames or events through a TransformStream and collect neutral events. */
import type { Frame } from "../../../src/wire/framing/mod.ts";

export { collectResponse as collect, run } from "../../helpers/collect.ts";

/** SSE data frames for a list of chunk objects (strings are passed as is). */
export function frames(...chunks: readonly unknown[]): Frame[] {
  return chunks.map((chunk) => ({ data: typeof chunk === "string" ? chunk : JSON.stringify(chunk) }));
}
