import type { StreamEvent } from "../../model/mod.ts";
import type { Frame } from "../framing/frame.ts";
import { isRecord, tryParseJson } from "../shared/mod.ts";
import { finishFromWire } from "./finish.ts";
import { usageFromWire } from "./usage.ts";
import { StreamStage } from "../shared/stream_stage.ts";

type Emit = (event: StreamEvent) => void;
type Json = Record<string, unknown>;

/** What the decoder remembers about one upstream output item. */
interface ItemState {
  readonly type: "message" | "function_call" | "reasoning" | "other";
  /** The neutral block index, once the block is open. */
  block?: number;
  closed: boolean;
  /** Whether any text or argument delta was forwarded (done-only items still need their content sent). */
  sawDelta: boolean;
  lastSummaryIndex?: number;
  encryptedSent: boolean;
}

function str(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** The neutral status and kind for an upstream error code met mid-stream. */
function errorEvent(code: string, message: string): StreamEvent {
  switch (code) {
    case "rate_limit_exceeded":
    case "insufficient_quota":
      return { type: "error", status: 429, kind: "rate_limit", message };
    case "context_length_exceeded":
    case "invalid_prompt":
    case "invalid_request_error":
      return { type: "error", status: 400, kind: "invalid_request", message };
    case "server_is_overloaded":
    case "overloaded":
      return { type: "error", status: 503, kind: "overloaded", message };
    default:
      return { type: "error", status: 502, kind: "upstream", message };
  }
}

/** Upstream Responses SSE frames → neutral stream events. */
export function decodeStream(): StreamStage<Frame, StreamEvent> {
  const items = new Map<number, ItemState>();
  const byItemId = new Map<string, number>();
  let nextBlock = 0;
  let started = false;
  let ended = false;
  let sawToolCall = false;

  const start = (emit: Emit, response: unknown) => {
    if (started) return;
    started = true;
    const r = isRecord(response) ? response : {};
    emit({
      type: "start",
      id: str(r.id),
      model: str(r.model),
      ...(typeof r.created_at === "number" ? { created: r.created_at } : {}),
    });
  };

  const locate = (data: Json): ItemState | undefined => {
    if (typeof data.output_index === "number") return items.get(data.output_index);
    const index = byItemId.get(str(data.item_id));
    return index === undefined ? undefined : items.get(index);
  };

  const open = (emit: Emit, state: ItemState, item: Json): number => {
    if (state.block !== undefined) return state.block;
    const index = nextBlock++;
    state.block = index;
    switch (state.type) {
      case "function_call":
        sawToolCall = true;
        emit({
          type: "blockStart",
          index,
          kind: "toolCall",
          id: str(item.call_id) || str(item.id),
          name: str(item.name),
        });
        break;
      case "reasoning": {
        const encrypted = str(item.encrypted_content);
        state.encryptedSent = encrypted !== "";
        emit({
          type: "blockStart",
          index,
          kind: "reasoning",
          family: "openai",
          ...(encrypted ? { redactedData: encrypted } : {}),
        });
        break;
      }
      case "message":
      case "other":
        emit({ type: "blockStart", index, kind: "text" });
        break;
    }
    return index;
  };

  const text = (emit: Emit, state: ItemState | undefined, delta: string) => {
    if (!state || state.closed || state.type === "function_call" || state.type === "other") return;
    const index = open(emit, state, {});
    state.sawDelta = true;
    if (delta !== "") emit({ type: "textDelta", index, text: delta });
  };

  const args = (emit: Emit, state: ItemState | undefined, json: string) => {
    if (!state || state.closed || state.type !== "function_call" || state.block === undefined) return;
    state.sawDelta = true;
    if (json !== "") emit({ type: "argumentsDelta", index: state.block, json });
  };

  const close = (emit: Emit, state: ItemState) => {
    if (state.closed) return;
    state.closed = true;
    if (state.block !== undefined) emit({ type: "blockEnd", index: state.block });
  };

  const added = (emit: Emit, data: Json) => {
    const item = isRecord(data.item) ? data.item : {};
    const outputIndex = typeof data.output_index === "number" ? data.output_index : items.size;
    const type = item.type === "message" || item.type === "function_call" || item.type === "reasoning"
      ? item.type
      : "other";
    const state: ItemState = { type, closed: false, sawDelta: false, encryptedSent: false };
    items.set(outputIndex, state);
    if (typeof item.id === "string") byItemId.set(item.id, outputIndex);
    // Messages wait for their first text; calls and reasoning open at once so deltas have a block.
    if (type === "function_call" || type === "reasoning") open(emit, state, item);
  };

  const done = (emit: Emit, data: Json) => {
    const item = isRecord(data.item) ? data.item : {};
    let state = locate(data);
    if (!state) {
      added(emit, data);
      state = locate(data);
      if (!state) return;
    }
    if (state.closed) return;
    switch (state.type) {
      case "message":
        if (!state.sawDelta) {
          const content = Array.isArray(item.content) ? item.content : [];
          const full = content.map((c) => (isRecord(c) ? str(c.text) || str(c.refusal) : "")).join("");
          if (full !== "") text(emit, state, full);
        }
        break;
      case "function_call":
        if (!state.sawDelta) args(emit, state, str(item.arguments));
        break;
      case "reasoning": {
        const index = open(emit, state, item);
        if (!state.sawDelta) {
          const summary = Array.isArray(item.summary) ? item.summary : [];
          const full = summary.map((s) => (isRecord(s) ? str(s.text) : "")).join("\n\n");
          if (full !== "") emit({ type: "textDelta", index, text: full });
        }
        const encrypted = str(item.encrypted_content);
        // Encrypted content only arrives with the finished item; the neutral stream carries it as the
        // block's signature, which the Responses encoders read back as encrypted_content.
        if (encrypted !== "" && !state.encryptedSent) {
          emit({ type: "signatureDelta", index, signature: encrypted });
        }
        break;
      }
      case "other":
        break;
    }
    close(emit, state);
  };

  const closeAll = (emit: Emit) => {
    const open = [...items.values()].filter((s) => !s.closed && s.block !== undefined);
    open.sort((a, b) => (a.block ?? 0) - (b.block ?? 0));
    for (const state of open) close(emit, state);
  };

  const terminal = (emit: Emit, response: unknown) => {
    const r = isRecord(response) ? response : {};
    start(emit, r);
    closeAll(emit);
    ended = true;
    const usage = usageFromWire(r.usage);
    if (usage) emit({ type: "usage", usage });
    const output = Array.isArray(r.output) ? r.output : [];
    const hasCalls = sawToolCall || output.some((o) => isRecord(o) && o.type === "function_call");
    const reason = isRecord(r.incomplete_details) ? str(r.incomplete_details.reason) : "";
    const status = typeof r.status === "string" ? r.status : "completed";
    emit({ type: "finish", finish: finishFromWire(status, reason || null, hasCalls) });
  };

  const fail = (emit: Emit, error: unknown, fallback: string) => {
    const e = isRecord(error) ? error : {};
    ended = true;
    emit(errorEvent(str(e.code) || str(e.type), str(e.message) || fallback));
  };

  return new StreamStage<Frame, StreamEvent>({
    transform(frame, controller) {
      if (ended) return;
      const data = tryParseJson(frame.data);
      if (!isRecord(data)) return;
      const emit: Emit = (event) => controller.enqueue(event);
      const type = str(data.type) || frame.event || "";
      switch (type) {
        case "response.created":
        case "response.queued":
        case "response.in_progress":
          return start(emit, data.response);
        case "response.output_item.added":
          start(emit, undefined);
          return added(emit, data);
        case "response.output_text.delta":
        case "response.refusal.delta":
          return text(emit, locate(data), str(data.delta));
        case "response.reasoning_summary_text.delta":
        case "response.reasoning_text.delta": {
          const state = locate(data);
          const summaryIndex = typeof data.summary_index === "number" ? data.summary_index : 0;
          // Separate summary parts the way the non-stream decoder joins them.
          if (state && state.lastSummaryIndex !== undefined && state.lastSummaryIndex !== summaryIndex) {
            text(emit, state, "\n\n");
          }
          if (state) state.lastSummaryIndex = summaryIndex;
          return text(emit, state, str(data.delta));
        }
        case "response.function_call_arguments.delta":
          return args(emit, locate(data), str(data.delta));
        case "response.function_call_arguments.done": {
          const state = locate(data);
          if (state && !state.sawDelta) args(emit, state, str(data.arguments));
          return;
        }
        case "response.output_item.done":
          start(emit, undefined);
          return done(emit, data);
        case "response.completed":
        case "response.incomplete":
        case "response.done":
          return terminal(emit, data.response);
        case "response.failed": {
          const response = isRecord(data.response) ? data.response : {};
          return fail(emit, response.error, "Upstream response failed");
        }
        case "error":
          return fail(emit, isRecord(data.error) ? data.error : data, "Upstream stream error");
        default:
          return;
      }
    },
    flush(controller) {
      if (ended) return;
      const emit: Emit = (event) => controller.enqueue(event);
      closeAll(emit);
      emit({
        type: "error",
        status: 502,
        kind: "upstream",
        message: "Upstream stream ended before response.completed",
      });
    },
  });
}
