import { JobWorker } from "../gateway/job_worker.ts";
import type { ParseAnswer, ParseJob } from "./json_parse_worker.ts";

/**
 * Parses big request bodies on a worker thread (started on first use, stopped after a while without big
 * bodies, see JobWorker, and by `close()`); see json_parse_worker.ts. Jobs run one after another there, in
 * arrival order.
 */
export class JsonParser {
  readonly #worker = new JobWorker<ParseJob, ParseAnswer>(
    new URL("./json_parse_worker.ts", import.meta.url),
    "JSON parser",
  );

  /** Decodes, parses and shape-checks `bytes`, whose buffer is handed over (unusable here afterwards). */
  parse(bytes: Uint8Array<ArrayBuffer>): Promise<ParseAnswer> {
    return this.#worker.run({ bytes }, [bytes.buffer]);
  }

  /** The next piece of the long strings of the body that parse answer `body` (its id) left out. */
  async take(body: number): Promise<string> {
    const answer = await this.#worker.run({ take: body });
    if ("piece" in answer) return answer.piece;
    throw new Error("the JSON parser holds no more pieces of that body");
  }

  /** Stops the worker; parses still waiting fail. */
  close(): void {
    this.#worker.close();
  }
}
