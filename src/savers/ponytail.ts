import type { NeutralRequest } from "../model/mod.ts";
import { SAFETY_CLAUSE } from "./safety_clause.ts";
import { insertSystemInstruction } from "./system_instruction.ts";
import type { Saver, SaverLevel } from "./types.ts";

const STYLE: Readonly<Record<SaverLevel, string>> = {
  lite: "When writing code, write only what was asked for. Prefer the standard library to new " +
    "dependencies and keep changes to existing code minimal.",
  full: "When writing code, write the least code that solves the task: no boilerplate, no speculative " +
    "abstractions or options, no unrequested features, and no comments or docstrings unless asked. " +
    "Prefer the standard library and dependencies already in use, and prefer editing or deleting " +
    "existing code to adding new layers.",
  ultra: "Minimal code only. Before writing anything, check whether deleting code, the standard library, " +
    "a platform feature or an existing dependency already does the job; if one line works, write one " +
    "line. No boilerplate, no comments, no docstrings, no scaffolding, no abstractions, no extra tests or " +
    "examples unless asked, and at most two sentences of explanation.",
};

const NEVER_CUT = "Never leave out input validation, error handling that prevents data loss, security " +
  "checks or accessibility to save lines.";

/** The system instruction Ponytail adds at `level` (each level asks for less code). */
export function ponytailInstruction(level: SaverLevel): string {
  return `${STYLE[level]} ${NEVER_CUT} ${SAFETY_CLAUSE}`;
}

/** Every Ponytail instruction, to recognise ones already placed. */
export const PONYTAIL_INSTRUCTIONS: readonly string[] = (["lite", "full", "ultra"] as const).map(
  ponytailInstruction,
);

/** Ponytail: asks the model for minimal code through a system instruction. */
export function ponytailSaver(level: SaverLevel, knownInstructions: ReadonlySet<string>): Saver {
  const instruction = ponytailInstruction(level);
  return {
    name: "ponytail",
    apply: (request: NeutralRequest) => insertSystemInstruction(request, instruction, knownInstructions),
  };
}
