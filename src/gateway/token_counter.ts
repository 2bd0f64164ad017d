import type { CountAnswer, CountJob } from "./token_count_worker.ts";

/**
 * Counts texts in a worker thread (started on first use, kept for the next). The serving event loop only
 * posts the texts and waits: a 256 KB body costs it a structured clone, not the tokenizer's work.
 */
export class TokenCounter {
  #worker: Worker | null = null;
  #nextId = 0;
  #started = 0;
  readonly #pending = new Map<number, { resolve(tokens: number): void; reject(error: Error): void }>();

  /** The tokens of `texts` with the reference tokenizer (o200k_base). */
  count(texts: readonly string[]): Promise<number> {
    const worker = this.#worker ?? this.#start();
    const id = ++this.#nextId;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      worker.postMessage({ id, texts } satisfies CountJob);
      this.#started++;
    });
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
    this.#worker?.terminate();
    this.#worker = null;
    this.#failAll(new Error("the token counter was closed"));
  }

  #start(): Worker {
    const worker = new Worker(new URL("./token_count_worker.ts", import.meta.url), { type: "module" });
    worker.onmessage = (event: MessageEvent<CountAnswer>) => {
      const answer = event.data;
      const waiting = this.#pending.get(answer.id);
      if (waiting === undefined) return;
      this.#pending.delete(answer.id);
      if ("tokens" in answer) waiting.resolve(answer.tokens);
      else waiting.reject(new Error(answer.error));
    };
    worker.onerror = (event) => {
      event.preventDefault();
      // A worker that died takes its jobs with it; the next count starts a new one.
      worker.terminate();
      if (this.#worker === worker) this.#worker = null;
      this.#failAll(new Error(`token counter failed: ${event.message}`));
    };
    this.#worker = worker;
    return worker;
  }

  #failAll(error: Error): void {
    for (const waiting of this.#pending.values()) waiting.reject(error);
    this.#pending.clear();
  }
}
