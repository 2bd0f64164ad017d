import { addWarnings, type GatewayWarning } from "../../model/mod.ts";

/** Collects encoder warnings, one per code (the first wins) and in first-seen order. */
export class Warnings {
  readonly #warnings: GatewayWarning[] = [];

  /** Records one warning. */
  add(warning: GatewayWarning): void {
    addWarnings(this.#warnings, [warning]);
  }

  /** The warnings recorded so far. */
  list(): GatewayWarning[] {
    return [...this.#warnings];
  }
}
