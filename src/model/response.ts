import type { Extra } from "./extra.ts";
import type { Finish } from "./finish.ts";
import type { Part } from "./parts.ts";
import type { Usage } from "./usage.ts";

/** A complete (non-streamed) model answer. */
export interface NeutralResponse {
  readonly id: string;
  /** The model name the upstream reported (or the upstream model asked for). */
  readonly model: string;
  /** Unix seconds; encoders that need a timestamp use it. */
  readonly created?: number;
  readonly parts: readonly Part[];
  readonly finish: Finish;
  readonly usage: Usage;
  readonly extra?: Extra;
}
