import { EXACT_CHARS, READ_CHARS } from "../accounting/mod.ts";
import type { LongStrings } from "../long_strings.ts";
import { LruMap } from "../lru_map.ts";
import { JobWorker } from "./job_worker.ts";
import type { CountAnswer, CountJob } from "./token_count_worker.ts";

/**
 * Most characters of counted texts kept with their counts (about 2-4 MB): the system prompts and tool
 * lists a few coding assistants send with every request, and their recent conversations.
 */
const MAX_CACHED_CHARS = 1024 * 1024;

/**
 * Counts texts in a worker thread (started on first use, stopped after a while without counts; see
 * JobWorker). The serving event loop only posts the texts and waits: a 256 KB body costs it a structured
 * clone, not the tokenizer's work.
 *
 * Each text's count is kept (up to MAX_CACHED_CHARS, least recently used out first): a coding assistant
 * sends the same system prompt, tools and earlier turns with every request, and only texts not seen
 * before go to the worker. A request whose texts pass EXACT_CHARS together is counted whole as before:
 * past that its count is extrapolated from the part counted, so it is not a sum of its texts' counts.
 */
export class TokenCounter {
  readonly #worker = new JobWorker<CountJob, CountAnswer>(
    new URL("./token_count_worker.ts", import.meta.url),
    "token counter",
  );
  readonly #cache = new LruMap<string, number>(MAX_CACHED_CHARS, (text) => text.length);
  #started = 0;

  /**
   * The tokens of `texts` with the reference tokenizer (o200k_base); `longStrings`: the pieces the
   * request holds its long strings in (src/long_strings.ts).
   */
  async count(texts: readonly string[], longStrings?: LongStrings): Promise<number> {
    let chars = 0;
    for (const text of texts) chars += text.length;
    if (chars > EXACT_CHARS) {
      const done = await this.#run(heads(texts, longStrings));
      if ("tokens" in done) return done.tokens;
      throw new Error("error" in done ? done.error : "the token counter answered without a total");
    }
    let tokens = 0;
    const unknown: string[] = [];
    for (const text of texts) {
      const known = this.#cache.get(text);
      if (known === undefined) unknown.push(text);
      else tokens += known;
    }
    if (unknown.length === 0) return tokens;
    const done = await this.#run({ texts: unknown, each: true });
    if (!("counts" in done)) {
      throw new Error("error" in done ? done.error : "the token counter answered no counts");
    }
    for (let i = 0; i < unknown.length; i++) {
      tokens += done.counts[i];
      // A text too long to be worth keeping would push out everything else.
      if (unknown[i].length <= MAX_CACHED_CHARS / 4) this.#cache.set(unknown[i], done.counts[i]);
    }
    return tokens;
  }

  /**
   * How many counts have been handed to the worker. Tests wait for it to move before probing other
   * requests, so the probes overlap the count itself rather than the upload of its body.
   */
  get started(): number {
    return this.#started;
  }

  /** Stops the worker; counts still waiting fail. */
  close(): void {
    this.#worker.close();
  }

  #run(job: Omit<CountJob, "id">): Promise<CountAnswer> {
    const answer = this.#worker.run(job);
    this.#started++;
    return answer;
  }
}

/**
 * The part of `texts` the tokenizer reads (READ_CHARS together: past it, an estimate only extrapolates from
 * lengths), and their whole lengths. Posting a 30 MB text copied it to the worker for nothing, and a long
 * string held in pieces was first made whole, in one step; a head of one comes from its first piece.
 */
function heads(texts: readonly string[], longStrings?: LongStrings): Omit<CountJob, "id"> {
  let room = READ_CHARS;
  const parts = texts.map((text) => {
    const head = text.length <= room ? text : longStrings?.head(text, room) ?? text.slice(0, room);
    room -= head.length;
    return head;
  });
  return { texts: parts, lengths: texts.map((text) => text.length) };
}
