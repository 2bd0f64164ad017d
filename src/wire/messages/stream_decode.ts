import type { StreamEvent } from "../../model/mod.ts";
import type { Frame } from "../framing/mod.ts";
import { isRecord, tryParseJson } from "../shared/mod.ts";
import { upstreamErrorInfo } from "./errors.ts";
import { decodeStopReason } from "./finish.ts";
import { foldUsage, readBuckets, type UsageBuckets } from "./usage.ts";
import { StreamStage } from "../shared/stream_stage.ts";

type Emit = (event: StreamEvent) => void;

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** Merges two usage reports: upstreams repeat cumulative counts, and some only report input late. */
function laterBuckets(a: UsageBuckets, b: UsageBuckets): UsageBuckets {
  // The later report wins where it names a count (message_delta's totals are final, and a gateway's
  // message_start may carry an estimate); a 0 or absent field keeps what was reported before.
  return {
    input: b.input || a.input,
    cacheCreation: b.cacheCreation || a.cacheCreation,
    cacheRead: b.cacheRead || a.cacheRead,
    output: b.output || a.output,
  };
}

/**
 * Upstream messages SSE frames → neutral events. Block indexes are the upstream's. Usage buckets are
 * merged across message_start and message_delta and every usage event carries the folded totals so
 * far, so the last one is the whole answer's usage. Server-tool blocks are skipped with their deltas.
 */
export function decodeStream(): StreamStage<Frame, StreamEvent> {
  let buckets: UsageBuckets = { input: 0, cacheCreation: 0, cacheRead: 0, output: 0 };
  const open = new Set<number>();
  const skipped = new Set<number>();
  let failed = false;

  const usage = (raw: unknown, emit: Emit) => {
    if (!isRecord(raw)) return;
    buckets = laterBuckets(buckets, readBuckets(raw));
    emit({ type: "usage", usage: foldUsage(buckets) });
  };

  const blockStart = (index: number, block: Record<string, unknown>, emit: Emit) => {
    switch (block.type) {
      case "text":
        open.add(index);
        emit({ type: "blockStart", index, kind: "text" });
        if (text(block.text) !== "") emit({ type: "textDelta", index, text: text(block.text) });
        return;
      case "thinking":
        open.add(index);
        emit({ type: "blockStart", index, kind: "reasoning", family: "anthropic" });
        if (text(block.thinking) !== "") emit({ type: "textDelta", index, text: text(block.thinking) });
        if (text(block.signature) !== "") {
          emit({ type: "signatureDelta", index, signature: text(block.signature) });
        }
        return;
      case "redacted_thinking":
        open.add(index);
        emit({
          type: "blockStart",
          index,
          kind: "reasoning",
          redactedData: text(block.data),
          family: "anthropic",
        });
        return;
      case "tool_use": {
        open.add(index);
        emit({ type: "blockStart", index, kind: "toolCall", id: text(block.id), name: text(block.name) });
        // Real streams start with `input: {}` and send JSON deltas; some compatible ones send it whole here.
        if (isRecord(block.input) && Object.keys(block.input).length > 0) {
          emit({ type: "argumentsDelta", index, json: JSON.stringify(block.input) });
        }
        return;
      }
      default:
        skipped.add(index);
        return;
    }
  };

  const blockDelta = (index: number, delta: Record<string, unknown>, emit: Emit) => {
    if (skipped.has(index)) return;
    switch (delta.type) {
      case "text_delta":
        if (text(delta.text) !== "") emit({ type: "textDelta", index, text: text(delta.text) });
        return;
      case "thinking_delta":
        if (text(delta.thinking) !== "") emit({ type: "textDelta", index, text: text(delta.thinking) });
        return;
      case "signature_delta":
        if (text(delta.signature) !== "") {
          emit({ type: "signatureDelta", index, signature: text(delta.signature) });
        }
        return;
      case "input_json_delta":
        if (text(delta.partial_json) !== "") {
          emit({ type: "argumentsDelta", index, json: text(delta.partial_json) });
        }
        return;
      default:
        // citations_delta and future delta kinds have no neutral form.
        return;
    }
  };

  const onFrame = (frame: Frame, emit: Emit) => {
    const data = tryParseJson(frame.data);
    // Non-JSON data lines (proxies' HTML error pages, keep-alives) carry nothing to decode.
    if (!isRecord(data)) return;
    const type = typeof data.type === "string" ? data.type : frame.event;
    const index = typeof data.index === "number" ? data.index : -1;
    switch (type) {
      case "message_start": {
        const message = isRecord(data.message) ? data.message : {};
        emit({ type: "start", id: text(message.id), model: text(message.model) });
        usage(message.usage, emit);
        return;
      }
      case "content_block_start":
        if (isRecord(data.content_block)) blockStart(index, data.content_block, emit);
        return;
      case "content_block_delta":
        if (isRecord(data.delta)) blockDelta(index, data.delta, emit);
        return;
      case "content_block_stop":
        if (open.delete(index)) emit({ type: "blockEnd", index });
        return;
      case "message_delta": {
        const delta = isRecord(data.delta) ? data.delta : {};
        usage(data.usage, emit);
        if (typeof delta.stop_reason === "string") {
          emit({ type: "finish", finish: decodeStopReason(delta.stop_reason) });
        }
        return;
      }
      case "error": {
        const info = upstreamErrorInfo(data);
        failed = true;
        emit({ type: "error", status: info.status, message: info.message, kind: info.kind });
        return;
      }
      default:
        // ping, message_stop and unknown events carry nothing the neutral stream needs.
        return;
    }
  };

  return new StreamStage<Frame, StreamEvent>({
    transform(frame, controller) {
      if (failed) return;
      onFrame(frame, (event) => controller.enqueue(event));
    },
    flush(controller) {
      if (failed) return;
      // A cut-off stream still closes what it opened, so encoders need not guess.
      for (const index of open) controller.enqueue({ type: "blockEnd", index });
      open.clear();
    },
  });
}
