import type { NeutralRequest } from "../model/mod.ts";
import { SAFETY_CLAUSE } from "./safety_clause.ts";
import { insertSystemInstruction } from "./system_instruction.ts";
import type { Saver, SaverLevel } from "./types.ts";

const STYLE: Readonly<Record<SaverLevel, string>> = {
  lite: "Answer concisely. Skip greetings, pleasantries and filler, do not restate the question, and " +
    "explain your approach only when asked.",
  full: "Be terse. Lead with the answer and stop when it is complete: no pleasantries, no preamble, no " +
    "closing summary, no narration of what you are about to do. Prefer short sentences and lists to " +
    "paragraphs, and keep every piece of technical substance.",
  ultra: "Be as terse as possible. Sentence fragments are fine; drop articles, filler, hedging and " +
    "politeness. No preamble, no recap, no commentary, no emoji. Use one line when one line is enough.",
};

/** The system instruction Caveman adds at `level` (each level asks for more brevity). */
export function cavemanInstruction(level: SaverLevel): string {
  return `${STYLE[level]} ${SAFETY_CLAUSE}`;
}

/** Every Caveman instruction, to recognise ones already placed. */
export const CAVEMAN_INSTRUCTIONS: readonly string[] = (["lite", "full", "ultra"] as const).map(
  cavemanInstruction,
);

/** Caveman: asks the model for terse answers through a system instruction. */
export function cavemanSaver(level: SaverLevel, knownInstructions: ReadonlySet<string>): Saver {
  const instruction = cavemanInstruction(level);
  return {
    name: "caveman",
    apply: (request: NeutralRequest) => insertSystemInstruction(request, instruction, knownInstructions),
  };
}
