import {
  type Finish,
  mergeUsage,
  type NeutralResponse,
  type Part,
  type StreamEvent,
  type Usage,
  ZERO_USAGE,
} from "../../model/mod.ts";

/** The first error event of a stream. */
export interface CollectedError {
  readonly status: number;
  readonly kind: string;
  readonly message: string;
}

/**
 * Folds neutral stream events into the response they describe, for upstreams that only stream when the
 * client asked for one answer. Blocks keep their order by index; signatures and families are kept.
 */
export class EventCollector {
  #id = "";
  #model = "";
  #usage: Usage = ZERO_USAGE;
  #finish: Finish = { unified: "stop", raw: null };
  #error: CollectedError | undefined;
  readonly #blocks = new Map<number, Part>();

  /** Takes one event. */
  add(event: StreamEvent): void {
    switch (event.type) {
      case "start":
        this.#id = event.id;
        this.#model = event.model;
        return;
      case "blockStart":
        this.#blocks.set(event.index, openPart(event));
        return;
      case "textDelta": {
        const part = this.#blocks.get(event.index);
        if (part?.kind === "text" || part?.kind === "reasoning") {
          this.#blocks.set(event.index, { ...part, text: part.text + event.text });
        }
        return;
      }
      case "argumentsDelta": {
        const part = this.#blocks.get(event.index);
        if (part?.kind === "toolCall") {
          this.#blocks.set(event.index, { ...part, arguments: part.arguments + event.json });
        }
        return;
      }
      case "signatureDelta": {
        const part = this.#blocks.get(event.index);
        if (part?.kind === "reasoning" || part?.kind === "toolCall") {
          this.#blocks.set(event.index, { ...part, signature: (part.signature ?? "") + event.signature });
        }
        return;
      }
      case "usage":
        this.#usage = mergeUsage(this.#usage, event.usage);
        return;
      case "finish":
        this.#finish = event.finish;
        return;
      case "error":
        this.#error ??= { status: event.status, kind: event.kind, message: event.message };
        return;
      case "blockEnd":
        return;
    }
  }

  /** The stream's first error, if it carried one. */
  get error(): CollectedError | undefined {
    return this.#error;
  }

  /** The response folded so far; `fallbackModel` names it when the stream named no model. */
  response(fallbackModel: string): NeutralResponse {
    const parts = [...this.#blocks.entries()].sort((a, b) => a[0] - b[0]).map(([, part]) => part);
    const { estimated: _estimated, ...usage } = this.#usage;
    return {
      id: this.#id,
      model: this.#model || fallbackModel,
      parts,
      finish: this.#finish,
      usage,
    };
  }
}

function openPart(event: Extract<StreamEvent, { type: "blockStart" }>): Part {
  const family = event.family === undefined ? {} : { family: event.family };
  switch (event.kind) {
    case "text":
      return { kind: "text", text: "" };
    case "reasoning":
      return event.redactedData === undefined
        ? { kind: "reasoning", text: "", ...family }
        : { kind: "reasoning", text: "", redactedData: event.redactedData, ...family };
    case "toolCall":
      return { kind: "toolCall", id: event.id ?? "", name: event.name ?? "", arguments: "", ...family };
  }
}
