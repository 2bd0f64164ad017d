/** Stream plumbing and an event collector for the messages codec tests. */
import type { Frame } from "../../../src/wire/framing/mod.ts";
import { sseFrames } from "../../../src/wire/framing/mod.ts";
import { run } from "../../helpers/collect.ts";

export { collectResponse as collect, run as pipe } from "../../helpers/collect.ts";

/** Parses SSE text into frames with the real framing code. */
export function framesOf(text: string): Promise<Frame[]> {
  return run([text], sseFrames());
}

/** Builds messages-style SSE text: one `event:` + `data:` pair per payload, named by its `type`. */
export function sse(...payloads: readonly Record<string, unknown>[]): string {
  return payloads.map((p) => `event: ${String(p.type)}\ndata: ${JSON.stringify(p)}\n\n`).join("");
}

/** Parses encoder output back into `{event, data}` pairs. */
export async function parsedEvents(text: string): Promise<{ event?: string; data: unknown }[]> {
  const frames = await framesOf(text);
  return frames.map((frame) => ({ event: frame.event, data: JSON.parse(frame.data) }));
}
