/** Stream plumbing and an event collector for the generateContent codec tests. */
import type { Frame } from "../../../src/wire/framing/mod.ts";
import { sseFrames } from "../../../src/wire/framing/mod.ts";
import { run } from "../../helpers/collect.ts";

export { collectResponse as collect, run as pipeAll } from "../../helpers/collect.ts";

/** SSE text → frames, as the executor does before a codec sees them. */
export function framesOf(text: string): Promise<Frame[]> {
  return run([text], sseFrames());
}

/** SSE text of Gemini chunks, one `data:` line per JSON value. */
export function sseText(chunks: readonly unknown[]): string {
  return chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`).join("");
}
