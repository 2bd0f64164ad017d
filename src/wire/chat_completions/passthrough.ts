import type { Finish, Usage } from "../../model/mod.ts";
import { mergeUsage } from "../../model/mod.ts";
import type { Frame } from "../framing/mod.ts";
import { framedText } from "../framing/mod.ts";
import { isRecord, tryParseJson } from "../shared/mod.ts";
import { deltaOf, primaryChoice, reasoningOf } from "./chunk.ts";
import { type ContentTemplate, learnContentTemplate, matchContentTemplate } from "./content_template.ts";
import { decodeFinish } from "./finish.ts";
import { isUnusableId } from "./ids.ts";
import { upstreamErrorMessage } from "./response_decode.ts";
import { DONE_FRAME } from "./stream_encode.ts";
import { decodeUsage } from "./usage.ts";
import { type StageOutput, StreamStage } from "../shared/stream_stage.ts";

type Json = Record<string, unknown>;

/** What a passthrough stream reports so the gateway can meter it without decoding it twice. */
export interface PassthroughObserver {
  /** Usage so far (merged across reports), each time the upstream reports some. */
  usage(usage: Usage): void;
  /** Each non-null finish reason, and the synthesised one when the upstream sent none. */
  finish(finish: Finish): void;
  /** An `error` object the upstream put inside its 200 stream. */
  error(message: string): void;
  /** Called once, at the first real content, reasoning or tool-call delta. */
  content(): void;
  /** Text of each delta (content, reasoning, tool arguments), for token estimates. */
  text?(delta: string): void;
}

/** Options of {@link chatCompletionsPassthrough}. */
export interface PassthroughOptions {
  /** Unix seconds, used where a chunk lacks `created`. */
  readonly now: number;
  /** Suffix of the `chatcmpl-` id used when the upstream's ids are unusable. */
  readonly fallbackId: string;
  /** Whether to end with `data: [DONE]` (default true; generate-content-family providers reject it). */
  readonly emitDone?: boolean;
  readonly observer?: PassthroughObserver;
  /** The model id every chunk names (the one the client asked for); the upstream's own when absent. */
  readonly model?: string;
  /** Rewrites an upstream error chunk's text before the client sees it (credentials, addresses). */
  readonly redactError?: (text: string) => string;
}

/**
 * What a running passthrough offers a lane that reads the upstream's bytes before they are decoded (see
 * passthrough_bytes.ts): the envelope it learnt, and the metering a chunk in that envelope gets.
 */
export interface ContentLane {
  /**
   * The learnt envelope of plain content chunks as the upstream writes it and as the client gets it (the
   * same object when the model is not renamed); null before one is learnt and once the stream ended.
   */
  envelope(): { readonly upstream: ContentTemplate; readonly client: ContentTemplate } | null;
  /** A chunk in the envelope carried `content`: metered exactly as the frame path meters such a chunk. */
  matched(content: string): void;
}

/**
 * Re-emits an upstream chat-completions stream to a chat-completions client with the spec's repairs:
 * blank-line framing, `object`/`created` filled, unusable ids replaced, `*_filter_results` and empty
 * `tool_calls` removed, non-JSON and empty chunks dropped, usage attached to the finish chunk, a
 * finish synthesised when missing and `[DONE]` guaranteed. Unchanged chunks pass through byte for byte.
 */
export function chatPassthroughFrames(options: PassthroughOptions): StreamStage<Frame, Frame> {
  return chatPassthroughWithLane(options).stage;
}

/** The passthrough and its content lane (the byte lane's view of the same stream). */
export function chatPassthroughWithLane(
  options: PassthroughOptions,
): { readonly stage: StreamStage<Frame, Frame>; readonly lane: ContentLane } {
  const emitDone = options.emitDone ?? true;
  const observer = options.observer;
  let streamId: string | undefined;
  let model = "";
  let sawChunk = false;
  let sawFinish = false;
  let sawTool = false;
  let sawContent = false;
  let errored = false;
  let ended = false;
  let usage: Usage | undefined;
  let rawUsage: unknown;
  /** The envelope of this stream's plain content chunks, once one was seen (see ContentTemplate). */
  let template: ContentTemplate | null = null;
  /** The template's envelope as the client gets it (the model renamed); the template itself otherwise. */
  let outTemplate: ContentTemplate | null = null;
  /** The model the template's chunks name ("" when they name none). */
  let templateModel = "";

  const end = (controller: StageOutput<Frame>) => {
    if (ended) return;
    ended = true;
    if (sawChunk && !sawFinish && !errored) {
      const reason = sawTool ? "tool_calls" : "stop";
      const synthetic: Json = {
        id: streamId ?? `chatcmpl-${options.fallbackId}`,
        object: "chat.completion.chunk",
        created: options.now,
        model: options.model ?? model,
        choices: [{ index: 0, delta: {}, finish_reason: reason }],
      };
      if (rawUsage !== undefined) synthetic.usage = rawUsage;
      observer?.finish({ unified: reason, raw: null });
      controller.enqueue({ data: JSON.stringify(synthetic) });
    }
    if (emitDone) controller.enqueue(DONE_FRAME);
  };

  const normalise = (data: Json): boolean => {
    let changed = false;
    if (streamId === undefined) {
      streamId = isUnusableId(data.id) ? `chatcmpl-${options.fallbackId}` : String(data.id);
    }
    // Most chunks repeat the stream's own (usable) id; only others need the check.
    if (data.id !== streamId && isUnusableId(data.id)) {
      data.id = streamId;
      changed = true;
    }
    if (typeof data.object !== "string") {
      data.object = "chat.completion.chunk";
      changed = true;
    }
    if (typeof data.created !== "number") {
      data.created = options.now;
      changed = true;
    }
    if (stripFilterResults(data)) changed = true;
    if (Array.isArray(data.choices)) {
      for (const choice of data.choices) {
        if (!isRecord(choice)) continue;
        if (stripFilterResults(choice)) changed = true;
        const delta = choice.delta;
        if (isRecord(delta) && Array.isArray(delta.tool_calls) && delta.tool_calls.length === 0) {
          delete delta.tool_calls;
          changed = true;
        }
      }
    }
    return changed;
  };

  const matched = (content: string) => {
    if (templateModel !== "") model = templateModel;
    observer?.text?.(content);
  };
  let envelope: { upstream: ContentTemplate; client: ContentTemplate } | null = null;
  const lane: ContentLane = {
    envelope() {
      if (ended || template === null || outTemplate === null) return null;
      if (envelope?.upstream !== template) envelope = { upstream: template, client: outTemplate };
      return envelope;
    },
    matched,
  };

  const stage = new StreamStage<Frame, Frame>({
    transform(frame, controller) {
      if (ended) return;
      if (template !== null) {
        // Same envelope as a chunk already handled in full, other content: nothing to repair or meter.
        const content = matchContentTemplate(template, frame.data);
        if (content !== null) {
          matched(content);
          controller.enqueue(withData(frame, retemplated(frame.data, template, outTemplate)));
          return;
        }
      }
      if (frame.data.trim() === "[DONE]") return end(controller);
      const data = tryParseJson(frame.data);
      // Non-JSON data (HTML error pages, plain-text notices) would break every client's JSON parser.
      if (!isRecord(data)) return;
      if (data.error !== undefined && data.error !== null) {
        errored = true;
        observer?.error(upstreamErrorMessage(data.error));
        const text = wireText(frame.data, undefined);
        controller.enqueue(withData(frame, options.redactError ? options.redactError(text) : text));
        return;
      }
      sawChunk = true;
      let changed = normalise(data);
      if (typeof data.model === "string" && data.model !== "") model = data.model;
      // The client sees the model id it asked for; kept apart from `changed` so renamed chunks still
      // make a template (the rename is applied to the template's envelope instead).
      const renamed = options.model !== undefined && typeof data.model === "string" &&
        data.model !== options.model;
      if (renamed) data.model = options.model;

      const reported = decodeUsage(data.usage);
      if (reported) {
        usage = usage ? mergeUsage(usage, reported) : reported;
        rawUsage = data.usage;
        observer?.usage(usage);
      }
      if (!reported && !(Array.isArray(data.choices) && data.choices.some(hasValue))) return;

      const choice = primaryChoice(data);
      if (choice) {
        const delta = deltaOf(choice);
        const tools = Array.isArray(delta.tool_calls) && delta.tool_calls.length > 0;
        if (tools) sawTool = true;
        if (!sawContent && (tools || reasoningOf(delta) !== "" || nonEmptyString(delta.content))) {
          sawContent = true;
          observer?.content();
        }
        const text = deltaText(delta);
        if (observer?.text) observer.text(text);
        if (template === null && !changed && !reported && mayBeTemplate(frame.data, choice)) {
          template = learnContentTemplate(frame.data, text);
          templateModel = model;
          outTemplate = template && renamed ? renamedTemplate(template, model, options.model!) : template;
          if (outTemplate === null) template = null;
        }
        if (nonEmptyString(choice.finish_reason)) {
          observer?.finish(decodeFinish(choice.finish_reason));
          if (!sawFinish && (data.usage === undefined || data.usage === null) && rawUsage !== undefined) {
            data.usage = rawUsage;
            changed = true;
          }
          sawFinish = true;
        }
      }
      controller.enqueue(withData(frame, wireText(frame.data, changed || renamed ? data : undefined)));
    },
    flush(controller) {
      end(controller);
    },
  });
  return { stage, lane };
}

/** A chunk that matched `template`, in the client's envelope `out` (same content between). */
function retemplated(data: string, template: ContentTemplate, out: ContentTemplate | null): string {
  if (out === null || out === template) return data;
  return out.prefix + data.slice(template.prefix.length, data.length - template.suffix.length) + out.suffix;
}

/**
 * The template with its `"model": "<upstream>"` member naming `model` instead, or null when that member
 * is not found as written (the chunk then takes the parsed path, which renames it structurally).
 */
function renamedTemplate(template: ContentTemplate, upstream: string, model: string): ContentTemplate | null {
  const quoted = JSON.stringify(upstream);
  const wanted = JSON.stringify(model);
  for (const member of [`"model":${quoted}`, `"model": ${quoted}`]) {
    const replacement = member.slice(0, member.length - quoted.length) + wanted;
    if (template.prefix.includes(member)) {
      return { prefix: template.prefix.replace(member, replacement), suffix: template.suffix };
    }
    if (template.suffix.includes(member)) {
      return { prefix: template.prefix, suffix: template.suffix.replace(member, replacement) };
    }
  }
  return null;
}

/** Data text for one SSE event: the upstream's own bytes unless the chunk changed or spans lines. */
function wireText(original: string, changed: Json | undefined): string {
  let text = changed !== undefined || original.includes("\n") || original.includes("\r")
    ? JSON.stringify(changed ?? JSON.parse(original))
    : original;
  // Raw U+2028/U+2029 inside JSON end the line for some SSE clients; escaped they mean the same.
  if (text.includes("\u2028") || text.includes("\u2029")) {
    text = text.replaceAll("\u2028", "\\u2028").replaceAll("\u2029", "\\u2029");
  }
  return text;
}

/**
 * Whether a chunk (unchanged, without usage) may serve as its stream's content template: chunks that
 * differ from it only in the delta's content then need no repair and meter as that content. A finish or
 * a chunk that leaves re-encoded cannot; any other field repeats harmlessly (the template proves the slot).
 */
function mayBeTemplate(original: string, choice: Json): boolean {
  return !nonEmptyString(choice.finish_reason) && !NOT_VERBATIM.test(original);
}

/** Characters that make a chunk's data text leave re-encoded rather than as it came (see wireText). */
const NOT_VERBATIM = /[\n\r\u2028\u2029]/;

/** Removes every `*_filter_results` key (Azure content filtering) and Azure's `content_filter_offsets`. */
function stripFilterResults(target: Json): boolean {
  let changed = false;
  for (const key in target) {
    if (key.endsWith("_filter_results") || key === "content_filter_offsets") {
      delete target[key];
      changed = true;
    }
  }
  return changed;
}

function nonEmptyString(value: unknown): value is string {
  return typeof value === "string" && value !== "";
}

/** Whether a choice carries anything a client acts on: a role, content, tool calls, a finish… */
function hasValue(choice: unknown): boolean {
  if (!isRecord(choice)) return false;
  if (nonEmptyString(choice.finish_reason)) return true;
  if (choice.logprobs !== undefined && choice.logprobs !== null) return true;
  const delta = deltaOf(choice);
  // for-in rather than Object.values: this runs on every chunk, and needs no array.
  for (const key in delta) if (meaningful(delta[key])) return true;
  return false;
}

function meaningful(value: unknown): boolean {
  if (value === null || value === undefined || value === "") return false;
  if (Array.isArray(value)) return value.length > 0;
  if (isRecord(value)) {
    for (const _ in value) return true;
    return false;
  }
  return true;
}

/** Content, reasoning and tool-argument text of one delta. */
function deltaText(delta: Record<string, unknown>): string {
  let text = (typeof delta.content === "string" ? delta.content : "") + reasoningOf(delta);
  if (Array.isArray(delta.tool_calls)) {
    for (const call of delta.tool_calls) {
      const fn = (call as { function?: { arguments?: unknown } })?.function;
      if (typeof fn?.arguments === "string") text += fn.arguments;
    }
  }
  return text;
}

/** The same passthrough as SSE text (what a client reads), for callers outside the gateway's pump. */
export function chatCompletionsPassthrough(options: PassthroughOptions): StreamStage<Frame, string> {
  return framedText(chatPassthroughFrames(options), "sse");
}

/** `frame` with `data`: the same object when nothing changed, and no `event` key when it has no name. */
function withData(frame: Frame, data: string): Frame {
  if (data === frame.data) return frame;
  return frame.event === undefined ? { data } : { event: frame.event, data };
}
