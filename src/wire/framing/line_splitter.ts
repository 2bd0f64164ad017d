/** How a LineSplitter cuts lines. */
export interface LineSplitterOptions {
  /** SSE ends lines at CR, LF or CRLF; NDJSON at LF only (a CR before it is left to trimming). */
  readonly crEndsLines: boolean;
  /** Adds the characters each chunk was searched through: work counted for tests, not timed. */
  readonly scanned?: (chars: number) => void;
}

/**
 * Splits text that arrives in chunks into lines, looking at each character once. A line that spans
 * reads is kept as a list of pieces and joined once, when its end arrives: appending every read to one
 * buffer and searching it from the start again made a 20 MiB line cost minutes of copying and scanning.
 */
export class LineSplitter {
  readonly #crEndsLines: boolean;
  readonly #scanned?: (chars: number) => void;
  #pending: string[] = [];
  #pendingChars = 0;
  /** The last chunk ended in CR: an LF that starts the next one belongs to that line end. */
  #sawCr = false;

  constructor(options: LineSplitterOptions) {
    this.#crEndsLines = options.crEndsLines;
    this.#scanned = options.scanned;
  }

  /** Characters of the line not yet ended. */
  get pendingChars(): number {
    return this.#pendingChars;
  }

  /** Calls `line` with each line that `chunk` completes, without its line end. */
  push(chunk: string, line: (text: string) => void): void {
    if (chunk === "") return;
    let start = 0;
    if (this.#sawCr && chunk.charCodeAt(0) === 10) start = 1;
    this.#sawCr = false;
    this.#scanned?.(chunk.length - start);
    if (!this.#crEndsLines || !chunk.includes("\r")) {
      // LF line ends only (nearly every upstream): the engine's search finds them faster than a loop.
      for (let i = chunk.indexOf("\n", start); i !== -1; i = chunk.indexOf("\n", start)) {
        line(this.#take(chunk, start, i));
        start = i + 1;
      }
    } else {
      for (let i = start; i < chunk.length; i++) {
        const c = chunk.charCodeAt(i);
        if (c !== 10 && c !== 13) continue;
        line(this.#take(chunk, start, i));
        if (c === 13) {
          if (i + 1 === chunk.length) this.#sawCr = true;
          else if (chunk.charCodeAt(i + 1) === 10) i++;
        }
        start = i + 1;
      }
    }
    if (start < chunk.length) {
      this.#pending.push(start === 0 ? chunk : chunk.slice(start));
      this.#pendingChars += chunk.length - start;
    }
  }

  /** The text after the last line end (a last line without one), and forgets it. */
  rest(): string {
    const text = this.#pending.join("");
    this.#pending = [];
    this.#pendingChars = 0;
    return text;
  }

  /** The pending pieces and `chunk[start, end)` as one line. */
  #take(chunk: string, start: number, end: number): string {
    if (this.#pendingChars === 0) return chunk.slice(start, end);
    this.#pending.push(chunk.slice(start, end));
    return this.rest();
  }
}
