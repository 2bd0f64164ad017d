/** Test helpers for the Responses codec: running transforms and collecting neutral streams. */
import type { Frame } from "../../../src/wire/framing/mod.ts";
import { sseFrames } from "../../../src/wire/framing/mod.ts";
import { run } from "../../helpers/collect.ts";

export { collectResponse as collect, run } from "../../helpers/collect.ts";

/** Parses SSE text into frames. */
export async function framesOf(text: string): Promise<Frame[]> {
  return await run([text], sseFrames());
}

/** The JSON payloads of SSE text, in order. */
export async function payloadsOf(text: string): Promise<Record<string, unknown>[]> {
  return (await framesOf(text)).map((f) => JSON.parse(f.data));
}

/** Builds SSE text from `[event, data]` pairs, the way an upstream sends them. */
export function sse(events: readonly Record<string, unknown>[]): string {
  return events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join("");
}
