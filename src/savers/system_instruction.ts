import type { NeutralRequest, TextPart } from "../model/mod.ts";

/**
 * Adds `instruction` as a new system block without disturbing prompt caching: it goes right after the
 * last block that carries a cache breakpoint (so the cached prefix stays byte-identical) and after any
 * saver instructions already placed there, or at the end when there are no breakpoints. The block
 * never carries cacheControl itself. Returns the same request when the instruction is already present.
 */
export function insertSystemInstruction(
  request: NeutralRequest,
  instruction: string,
  knownInstructions: ReadonlySet<string>,
): NeutralRequest {
  const system = request.system;
  if (system.some((part) => part.text === instruction)) return request;
  let lastBreakpoint = -1;
  for (let i = 0; i < system.length; i++) if (system[i].cacheControl) lastBreakpoint = i;
  let at = lastBreakpoint === -1 ? system.length : lastBreakpoint + 1;
  // Keeps Caveman before Ponytail when both sit behind the same breakpoint.
  while (at < system.length && knownInstructions.has(system[at].text)) at++;
  const block: TextPart = { kind: "text", text: instruction };
  return { ...request, system: [...system.slice(0, at), block, ...system.slice(at)] };
}
