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

/**
 * Watches neutral events without changing them and reports a summary exactly once: when the stream
 * ends, fails, or the client cancels it.
 */
export function streamMeter(
  onDone: (summary: StreamSummary) => void,
): TransformStream<StreamEvent, StreamEvent> {
  let usage: Usage = ZERO_USAGE;
  let usageReported = false;
  let finish: Finish | null = null;
  let outputText = "";
  let sawContent = false;
  let error: string | null = null;
  let reported = false;
  const report = (end: StreamSummary["end"]) => {
    if (reported) return;
    reported = true;
    onDone({ usage, usageReported, finish, outputText, sawContent, error, end: error ? "failed" : end });
  };
  return new TransformStream<StreamEvent, StreamEvent>({
    transform(event, controller) {
      switch (event.type) {
        case "textDelta":
          outputText += event.text;
          sawContent = true;
          break;
        case "argumentsDelta":
          outputText += event.json;
          sawContent = true;
          break;
        case "blockStart":
          if (event.kind === "toolCall") sawContent = true;
          break;
        case "usage":
          usage = mergeUsage(usage, event.usage);
          usageReported = true;
          break;
        case "finish":
          finish = event.finish;
          break;
        case "error":
          error = event.message;
          break;
        case "start":
        case "signatureDelta":
        case "blockEnd":
          break;
      }
      controller.enqueue(event);
    },
    flush: () => report("completed"),
    cancel: () => report("cancelled"),
  });
}
