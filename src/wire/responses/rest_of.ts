import { type Extra, splitExtra } from "../../model/mod.ts";

/** Rest of an object after the named keys, as an Extra tagged "responses" (undefined when empty). */
export function restOf(source: Record<string, unknown>, ...known: string[]): Extra | undefined {
  return splitExtra(source, new Set(known), "responses");
}
