import type { ParseAnswer, ParseJob } from "./json_parse_worker.ts";

/**
 * Parses big request bodies on a worker thread (started on first use, kept for the next, stopped by
 * `close()`); see json_parse_worker.ts. Jobs run one after another there, in arrival order.
 */
export class JsonParser {
  #worker: Worker | null = null;
  #nextId = 0;
  readonly #pending = new Map<number, { resolve(answer: ParseAnswer): void; reject(error: Error): void }>();

  /** Decodes, parses and shape-checks `bytes`, whose buffer is handed over (unusable here afterwards). */
  parse(bytes: Uint8Array<ArrayBuffer>): Promise<ParseAnswer> {
    const worker = this.#worker ?? this.#start();
    const id = ++this.#nextId;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      worker.postMessage({ id, bytes } satisfies ParseJob, [bytes.buffer]);
    });
  }

  /** Stops the worker; parses still waiting fail. */
  close(): void {
    this.#worker?.terminate();
    this.#worker = null;
    this.#failAll(new Error("the JSON parser was closed"));
  }

  #start(): Worker {
    const worker = new Worker(new URL("./json_parse_worker.ts", import.meta.url), { type: "module" });
    worker.onmessage = (event: MessageEvent<ParseAnswer>) => {
      const waiting = this.#pending.get(event.data.id);
      if (waiting === undefined) return;
      this.#pending.delete(event.data.id);
      waiting.resolve(event.data);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      // A worker that died takes its jobs with it; the next parse starts a new one.
      worker.terminate();
      if (this.#worker === worker) this.#worker = null;
      this.#failAll(new Error(`the JSON parser failed: ${event.message}`));
    };
    this.#worker = worker;
    return worker;
  }

  #failAll(error: Error): void {
    for (const waiting of this.#pending.values()) waiting.reject(error);
    this.#pending.clear();
  }
}
