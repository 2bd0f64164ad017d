import { JobWorker } from "../gateway/job_worker.ts";
import { LongStrings, type ParsedJson } from "../long_strings.ts";
import { nextTurn } from "../next_turn.ts";
import type { ParseAnswer, ParseJob, Subtree } from "./json_parse_worker.ts";

/** A parse job's answer that carries the value. */
export type ValueAnswer = Extract<ParseAnswer, { readonly value: unknown }>;

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

  /**
   * Decodes and parses JSON the gateway wrote itself (a stored conversation), given in parts whose buffers
   * are handed over; its long strings are held like a body's (`take`).
   */
  async parseStored(parts: readonly Uint8Array<ArrayBuffer>[]): Promise<ParsedJson> {
    const answer = await this.#worker.run({ stored: parts }, parts.map((p) => p.buffer));
    if ("value" in answer) return await this.receive(answer);
    throw new Error(`stored JSON did not parse: ${"notJson" in answer ? answer.notJson : "no value"}`);
  }

  /** The next piece of the long strings of the body that parse answer `body` (its id) left out. */
  async take(body: number): Promise<string> {
    const answer = await this.#worker.run({ take: body });
    if ("piece" in answer) return answer.piece;
    throw new Error("the JSON parser holds no more pieces of that body");
  }

  /** The next batch of subtrees of the body that parse answer `body` (its id) sent apart. */
  async #takeSubtrees(body: number): Promise<readonly Subtree[]> {
    const answer = await this.#worker.run({ take: body });
    if ("subtrees" in answer) return answer.subtrees;
    throw new Error("the JSON parser holds no more subtrees of that body");
  }

  /**
   * The value of a parse answer with its long strings put back, each joined here from its pieces, a piece
   * per turn, into a rope (src/long_strings.ts): received whole, a 30 MiB string was one step of 20-140 ms.
   */
  async receive(answer: ValueAnswer): Promise<ParsedJson> {
    // Receiving the value was one step of its own; what comes next (its subtrees, decoding the request,
    // encoding it for the upstream) starts on a later turn, as each batch and piece does. Subtrees first: a
    // long string's path may lead into one.
    for (let batch = 0; batch < answer.batches; batch++) {
      await nextTurn();
      for (const subtree of await this.#takeSubtrees(answer.id)) {
        placeAt(answer.value, subtree.path, subtree.node);
      }
    }
    const longStrings = new LongStrings();
    if (answer.long.length === 0) {
      await nextTurn();
      return { value: answer.value, longStrings };
    }
    for (const plan of answer.long) {
      const pieces: string[] = [];
      let text = "";
      while (pieces.length < plan.pieces) {
        await nextTurn();
        const piece = await this.take(answer.id);
        pieces.push(piece);
        text += piece;
      }
      placeAt(answer.value, plan.path, text);
      longStrings.add(text, pieces);
    }
    return { value: answer.value, longStrings };
  }

  /** Stops the worker; parses still waiting fail. */
  close(): void {
    this.#worker.close();
  }
}

/** Puts `item` where the parser's answer says it was. */
function placeAt(value: unknown, path: readonly (string | number)[], item: unknown): void {
  let node = value as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path[path.length - 1]] = item;
}
