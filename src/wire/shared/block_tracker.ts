import type { BlockKind, ProviderFamily, StreamEvent } from "../../model/mod.ts";

/** Where a decoder sends the neutral events it makes. */
export type Emit = (event: StreamEvent) => void;

/** What a blockStart says beside its index and kind (only the fields given are written). */
export interface BlockLabels {
  readonly id?: string;
  readonly name?: string;
  readonly family?: ProviderFamily;
}

/**
 * Block bookkeeping for upstream formats that have no blocks of their own (chat completions, Gemini,
 * the local runner): at most one block is open at a time, opening another closes it first, and indexes
 * are handed out in order. Keeping one open block is what lets every consumer see blocks in sequence.
 */
export class BlockTracker {
  #nextIndex = 0;
  #openKey: string | undefined;
  #openIndex = 0;

  /**
   * The index of the open block named `key`; when another block (or none) is open, that one closes and
   * a new block of `kind` starts. The key tells apart blocks of one kind (two tool calls).
   */
  open(key: string, kind: BlockKind, emit: Emit, labels?: BlockLabels): number {
    if (this.#openKey === key) return this.#openIndex;
    this.close(emit);
    this.#openKey = key;
    this.#openIndex = this.#nextIndex++;
    emit(blockStart(this.#openIndex, kind, labels));
    return this.#openIndex;
  }

  /** Closes the open block, if there is one. */
  close(emit: Emit): void {
    if (this.#openKey !== undefined) emit({ type: "blockEnd", index: this.#openIndex });
    this.#openKey = undefined;
  }

  /**
   * A block that arrives whole (a Gemini or local-runner tool call): the open block closes, then this
   * one starts, gets its content from `fill`, and ends. Returns its index.
   */
  whole(kind: BlockKind, emit: Emit, labels: BlockLabels, fill: (index: number) => void): number {
    this.close(emit);
    const index = this.#nextIndex++;
    emit(blockStart(index, kind, labels));
    fill(index);
    emit({ type: "blockEnd", index });
    return index;
  }
}

function blockStart(index: number, kind: BlockKind, labels: BlockLabels | undefined): StreamEvent {
  return labels === undefined
    ? { type: "blockStart", index, kind }
    : { type: "blockStart", index, kind, ...labels };
}
