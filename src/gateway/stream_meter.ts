import { type Finish, mergeUsage, type StreamEvent, type Usage, ZERO_USAGE } from "../model/mod.ts";
import type { PassthroughObserver } from "../wire/mod.ts";
import type { StageSteps } from "../wire/shared/mod.ts";

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
  /** Chunks sent to the client (the metrics' stream chunk count). */
  readonly chunks: number;
}

/** What decides a stream's fate before anything reached the client. */
export type FirstSignal = "commit" | "error" | null;

/**
 * Accumulates what a stream delivered and reports the summary exactly once. It also remembers whether
 * the upstream first proved it is answering (content or a finish: the stream is committed to the
 * client) or first sent an error (the attempt can still fall back).
 */
export class StreamTally {
  #usage: Usage = ZERO_USAGE;
  #usageReported = false;
  #finish: Finish | null = null;
  #outputText = "";
  #sawContent = false;
  #error: string | null = null;
  #errors = 0;
  #first: FirstSignal = null;
  #reported = false;
  #chunks = 0;
  readonly #onDone: (summary: StreamSummary) => void;

  constructor(onDone: (summary: StreamSummary) => void) {
    this.#onDone = onDone;
  }

  /** Whichever came first: a commit or an error (null while neither). */
  get firstSignal(): FirstSignal {
    return this.#first;
  }

  /** The last error seen, if any. */
  get errorMessage(): string | null {
    return this.#error;
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
    this.commit();
  }

  /** The upstream proved it is answering. */
  commit(): void {
    this.#first ??= "commit";
  }

  error(message: string): void {
    this.#error = message;
    this.#errors++;
    this.#first ??= "error";
  }

  /** One chunk went to the client. */
  sent(): void {
    this.#chunks++;
  }

  /** How many error events the stream carried so far. */
  get errorCount(): number {
    return this.#errors;
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
      chunks: this.#chunks,
    });
  }
}

/** Watches neutral events without changing them, feeding a tally. */
export function streamMeter(
  tally: StreamTally,
  redactError: (text: string) => string = (text) => text,
): StageSteps<StreamEvent, StreamEvent> {
  return {
    transform(event, out) {
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
          tally.commit();
          break;
        case "error": {
          // Upstream error text can repeat the credential it was sent; the client gets it redacted.
          const message = redactError(event.message);
          tally.error(message);
          out.enqueue({ ...event, message });
          return;
        }
        case "start":
        case "signatureDelta":
        case "blockEnd":
          break;
      }
      out.enqueue(event);
    },
  };
}

/**
 * The tally's feed for a chat-completions passthrough, whose observer sees each chunk once. A finish
 * the passthrough made up itself (`raw: null`, at the end of a stream without one) proves nothing.
 */
export function passthroughObserver(tally: StreamTally): PassthroughObserver {
  return {
    usage: (usage) => tally.usage(usage),
    finish: (finish) => {
      tally.finish(finish);
      if (finish.raw !== null) tally.commit();
    },
    error: (message) => tally.error(message),
    content: () => tally.content(),
    text: (delta) => tally.text(delta),
  };
}

/** How a stream's end reads in usage rows and request logs: the one place its status is decided. */
export function streamEndStatus(summary: StreamSummary): { readonly status: number; readonly error: string } {
  switch (summary.end) {
    case "completed":
      return summary.error === null ? { status: 200, error: "" } : { status: 502, error: summary.error };
    case "cancelled":
      return { status: 499, error: summary.error ?? "client disconnected" };
    case "failed":
      return { status: 502, error: summary.error ?? "" };
  }
}
