import { JobWorker } from "./job_worker.ts";
import type { CountAnswer, CountJob } from "./token_count_worker.ts";

/**
 * Counts texts in a worker thread (started on first use, stopped after a while without counts; see
 * JobWorker). The serving event loop only posts the texts and waits: a 256 KB body costs it a structured
 * clone, not the tokenizer's work.
 */
export class TokenCounter {
  readonly #worker = new JobWorker<CountJob, CountAnswer>(
    new URL("./token_count_worker.ts", import.meta.url),
    "token counter",
  );
  #started = 0;

  /** The tokens of `texts` with the reference tokenizer (o200k_base). */
  async count(texts: readonly string[]): Promise<number> {
    const answer = this.#worker.run({ texts });
    this.#started++;
    const done = await answer;
    if ("tokens" in done) return done.tokens;
    throw new Error(done.error);
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
}
