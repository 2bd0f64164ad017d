import { syntheticToolId } from "../shared/mod.ts";
import type { ToolIdPolicy } from "./parts_decode.ts";

/**
 * Tool ids for a client request. Gemini clients often send calls and responses without ids and pair
 * them by name and order; the gateway needs ids, so a call without one gets a deterministic id seeded
 * by its turn, and the next response with the same name (in order) gets the same id, whatever id it
 * carries itself.
 */
export class RequestToolIds {
  readonly #pending = new Map<string, string[]>();

  /** The id policy for the parts of `contents[contentIndex]`. */
  forContent(contentIndex: number): ToolIdPolicy {
    const seed = `contents[${contentIndex}]`;
    let ordinal = 0;
    return {
      callId: (name, explicit) => {
        const id = explicit ?? syntheticToolId(seed, ordinal, name);
        ordinal++;
        const queue = this.#pending.get(name);
        if (queue) queue.push(id);
        else this.#pending.set(name, [id]);
        return id;
      },
      resultId: (name, explicit) => {
        const queue = this.#pending.get(name) ?? [];
        if (explicit !== undefined) {
          const at = queue.indexOf(explicit);
          if (at !== -1) return queue.splice(at, 1)[0];
        }
        // Gemini pairs a response with its call by name and order, not by id: one with an id no call
        // carries (a client's own, or none) answers the oldest open call of its name, and takes its id.
        const paired = queue.shift();
        if (paired !== undefined) return paired;
        const id = explicit ?? syntheticToolId(seed, ordinal, name);
        ordinal++;
        return id;
      },
    };
  }
}

/** Tool ids for an upstream answer: missing ones are derived from the response id and call order. */
export function responseToolIds(responseId: string): ToolIdPolicy {
  let ordinal = 0;
  return {
    callId: (name, explicit) => {
      const position = ordinal++;
      return explicit ?? syntheticToolId(responseId, position, name);
    },
    resultId: (name, explicit) => {
      const position = ordinal++;
      return explicit ?? syntheticToolId(responseId, position, name);
    },
  };
}
