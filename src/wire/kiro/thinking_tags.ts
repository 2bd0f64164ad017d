/** A run of answer text or of thinking text. */
export interface Segment {
  readonly kind: "text" | "reasoning";
  readonly text: string;
}

const OPEN = "<thinking>";
const CLOSE = "</thinking>";

/** Length of the longest suffix of `text` that is a proper prefix of `tag` (a tag cut by a frame edge). */
function partialTagLength(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
    if (text.endsWith(tag.slice(0, n))) return n;
  }
  return 0;
}

/**
 * Splits assistant text with `<thinking>…</thinking>` sections into text and reasoning segments, across
 * chunks: a tag cut in two by a frame edge is held back until the next chunk says what it is.
 */
export class ThinkingSplitter {
  #inside = false;
  #held = "";

  /** The segments `chunk` completes; a possible partial tag at its end waits for the next chunk. */
  push(chunk: string): Segment[] {
    const out: Segment[] = [];
    let text = this.#held + chunk;
    this.#held = "";
    for (;;) {
      const tag = this.#inside ? CLOSE : OPEN;
      const at = text.indexOf(tag);
      if (at === -1) break;
      this.#emit(out, text.slice(0, at));
      this.#inside = !this.#inside;
      text = text.slice(at + tag.length);
    }
    const partial = partialTagLength(text, this.#inside ? CLOSE : OPEN);
    this.#held = text.slice(text.length - partial);
    this.#emit(out, text.slice(0, text.length - partial));
    return out;
  }

  /** What is held back at the end of the stream (a partial tag that never completed is plain text). */
  flush(): Segment[] {
    const out: Segment[] = [];
    this.#emit(out, this.#held);
    this.#held = "";
    return out;
  }

  #emit(out: Segment[], text: string): void {
    if (text !== "") out.push({ kind: this.#inside ? "reasoning" : "text", text });
  }
}
