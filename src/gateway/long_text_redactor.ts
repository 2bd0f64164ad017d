import { JobWorker } from "./job_worker.ts";
import { nextTurn } from "../next_turn.ts";
import type { RedactorSource } from "../security/redact.ts";
import type { RedactAnswer, RedactJob } from "./long_text_redact_worker.ts";

/**
 * Redacts long strings (src/long_strings.ts) on a worker thread (long_text_redact_worker.ts says why),
 * given and giving back their pieces, one piece crossing per turn. Started on first use, stopped after a
 * while without work (JobWorker) and by `close()`.
 */
export class LongTextRedactor {
  readonly #worker = new JobWorker<RedactJob, RedactAnswer>(
    new URL("./long_text_redact_worker.ts", import.meta.url),
    "long-text redactor",
  );
  #nextText = 0;

  /**
   * The pieces of `source`'s redaction of the text `pieces` join to (the same as `Redactor.redact`), or null
   * when it has nothing to redact: the caller keeps the string it has (a second string of the same length
   * would cost a comparison of both, character by character, wherever the two are told apart).
   */
  async redact(source: RedactorSource, pieces: readonly string[]): Promise<string[] | null> {
    const text = ++this.#nextText;
    for (const piece of pieces) {
      await nextTurn();
      await this.#worker.run({ text, piece });
    }
    const answer = await this.#worker.run({ redact: text, source });
    if ("unchanged" in answer) return null;
    if (!("pieces" in answer)) throw new Error("the long-text redactor lost a text");
    const redacted: string[] = [];
    while (redacted.length < answer.pieces) {
      await nextTurn();
      const taken = await this.#worker.run({ take: text });
      if (!("piece" in taken)) throw new Error("the long-text redactor holds no more pieces of a text");
      redacted.push(taken.piece);
    }
    return redacted;
  }

  /** Stops the worker; texts still being redacted fail. */
  close(): void {
    this.#worker.close();
  }
}
