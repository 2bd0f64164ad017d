import { type Finish, mergeUsage, type StreamEvent, type Usage, ZERO_USAGE } from "../model/mod.ts";

/** What a finished (or cut) stream delivered, for usage recording and account health. */
export interface StreamSummary {
  readonly usage: Usage;
  readonly usageReported: boolean;
  readonly finish: Finish | null;
  /** Text, reasoning and tool arguments seen, for token estimates when the upstream sent no usage. */
  readonly outputText: string;
  readonly sawContent: boolean;
  readonly error: string | null;
  /** How the stream ended: completed normally, cut by an upstream failure, or cancelled by the client. */
  readonly end: "completed" | "failed" | "cancelled";
}

/** Accumulates what a stream delivered and reports the summary exactly once. */
class StreamTally {
  #usage: Usage = ZERO_USAGE;
  #usageReported = false;
  #finish: Finish | null = null;
  #outputText = "";
  #sawContent = false;
  #error: string | null = null;
  #reported = false;
  readonly #onDone: (summary: StreamSummary) => void;

  constructor(onDone: (summary: StreamSummary) => void) {
    this.#onDone = onDone;
  }

  usage(usage: Usage): void {
    this.#usage = mergeUsage(this.#usage, usage);
    this.#usageReported = true;
  }

  finish(finish: Finish): void {
    this.#finish = finish;
  }

  text(text: string): void {
    this.#outputText += text;
  }

  content(): void {
    this.#sawContent = true;
  }

  error(message: string): void {
    this.#error = message;
  }

  /** Records an error only if none was seen. */
  errorIfNone(message: string): void {
    this.#error ??= message;
  }

  report(end: StreamSummary["end"]): void {
    if (this.#reported) return;
    this.#reported = true;
    this.#onDone({
      usage: this.#usage,
      usageReported: this.#usageReported,
      finish: this.#finish,
      outputText: this.#outputText,
      sawContent: this.#sawContent,
      error: this.#error,
      end: this.#error ? "failed" : end,
    });
  }
}

/**
 * Watches neutral events without changing them and reports a summary exactly once: when the stream
 * ends, fails, or the client cancels it.
 */
export function streamMeter(
  onDone: (summary: StreamSummary) => void,
): TransformStream<StreamEvent, StreamEvent> {
  const tally = new StreamTally(onDone);
  return new TransformStream<StreamEvent, StreamEvent>({
    transform(event, controller) {
      switch (event.type) {
        case "textDelta":
          tally.text(event.text);
          tally.content();
          break;
        case "argumentsDelta":
          tally.text(event.json);
          tally.content();
          break;
        case "blockStart":
          if (event.kind === "toolCall") tally.content();
          break;
        case "usage":
          tally.usage(event.usage);
          break;
        case "finish":
          tally.finish(event.finish);
          break;
        case "error":
          tally.error(event.message);
          break;
        case "start":
        case "signatureDelta":
        case "blockEnd":
          break;
      }
      controller.enqueue(event);
    },
    flush: () => tally.report("completed"),
    cancel: () => tally.report("cancelled"),
  });
}

/**
 * The same summary for a chat-completions passthrough: its observer feeds the tally (so each chunk is
 * parsed once), and `end` reports when the client stream ends.
 */
export function passthroughMeter(clientGone: () => boolean, onDone: (summary: StreamSummary) => void) {
  const tally = new StreamTally(onDone);
  return {
    observer: {
      usage: (usage: Usage) => tally.usage(usage),
      finish: (finish: Finish) => tally.finish(finish),
      error: (message: string) => tally.error(message),
      content: () => tally.content(),
      text: (delta: string) => tally.text(delta),
    },
    end: new TransformStream<string, string>({
      flush: () => tally.report("completed"),
      // Called both when the client goes away and when the upstream body breaks mid-stream.
      cancel: (reason) => {
        if (clientGone()) return tally.report("cancelled");
        tally.errorIfNone(
          `upstream stream broke: ${reason instanceof Error ? reason.message : String(reason)}`,
        );
        tally.report("failed");
      },
    }),
  };
}
