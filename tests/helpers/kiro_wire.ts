/**
 * The cloud assistant (Kiro) seen from a mock upstream: a neutral answer as the binary event-stream
 * frames the real service sends (text, thinking tags, tool input in fragments, metrics), and the tool
 * calls and results of a conversation-state request.
 */
import type { NeutralResponse } from "../../src/model/mod.ts";
import { kiroEvent, kiroException } from "./event_stream_encode.ts";

/** The frames of one answer; tool input arrives in three fragments, then a stop. */
export function kiroFrames(response: NeutralResponse): Uint8Array[] {
  const frames: Uint8Array[] = [];
  for (const part of response.parts) {
    if (part.kind === "reasoning") {
      frames.push(kiroEvent("assistantResponseEvent", { content: `<thinking>${part.text}</thinking>` }));
    } else if (part.kind === "text") {
      const half = Math.ceil(part.text.length / 2);
      frames.push(kiroEvent("assistantResponseEvent", { content: part.text.slice(0, half) }));
      if (part.text.length > half) {
        frames.push(kiroEvent("assistantResponseEvent", { content: part.text.slice(half) }));
      }
    } else if (part.kind === "toolCall") {
      const third = Math.ceil(part.arguments.length / 3);
      const base = { toolUseId: part.id, name: part.name };
      for (let at = 0; at < part.arguments.length; at += third) {
        frames.push(kiroEvent("toolUseEvent", { ...base, input: part.arguments.slice(at, at + third) }));
      }
      frames.push(kiroEvent("toolUseEvent", { ...base, stop: true }));
    }
  }
  const u = response.usage;
  frames.push(kiroEvent("contextUsageEvent", { contextUsagePercentage: 0.5 }));
  frames.push(kiroEvent("metricsEvent", {
    inputTokens: u.inputTotal - u.cacheRead - u.cacheWrite,
    outputTokens: u.output,
    cacheReadInputTokens: u.cacheRead,
    cacheWriteInputTokens: u.cacheWrite,
  }));
  return frames;
}

/** Text, then an exception frame: the service failing mid-answer. */
export function kiroBrokenFrames(text: string): Uint8Array[] {
  return [
    kiroEvent("assistantResponseEvent", { content: text }),
    kiroException("InternalServerException", "upstream died mid-answer"),
  ];
}

/**
 * A response whose body is `frames` written in `size`-byte pieces, each its own write after a timer turn,
 * so message boundaries fall inside reads the way a real network splits them.
 */
export function splitEventStream(frames: readonly Uint8Array[], size = 13, status = 200): Response {
  const wire = new Uint8Array(frames.reduce((n, f) => n + f.length, 0));
  let at = 0;
  for (const f of frames) {
    wire.set(f, at);
    at += f.length;
  }
  let offset = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (offset >= wire.length) return controller.close();
      await new Promise((r) => setTimeout(r, 0));
      controller.enqueue(wire.slice(offset, offset + size));
      offset += size;
    },
  });
  return new Response(body, { status, headers: { "content-type": "application/vnd.amazon.eventstream" } });
}

type Wire = Record<string, unknown>;

/** The model a conversation-state body asks for. */
export function kiroModel(body: Wire): string {
  const state = body.conversationState as Wire | undefined;
  const current = (state?.currentMessage as Wire | undefined)?.userInputMessage as Wire | undefined;
  return String(current?.modelId ?? "");
}

/** `[call arguments, result text]` pairs of a conversation-state body, in conversation order. */
export function kiroToolPairs(body: Wire): [string, string][] {
  const state = body.conversationState as Wire;
  const turns = [...((state.history as Wire[] | undefined) ?? []), state.currentMessage as Wire];
  const calls = new Map<string, string>();
  const pairs: [string, string][] = [];
  for (const turn of turns) {
    const assistant = turn.assistantResponseMessage as Wire | undefined;
    for (const use of (assistant?.toolUses as Wire[] | undefined) ?? []) {
      calls.set(String(use.toolUseId), JSON.stringify(use.input));
    }
    const user = turn.userInputMessage as Wire | undefined;
    const context = user?.userInputMessageContext as Wire | undefined;
    for (const result of (context?.toolResults as Wire[] | undefined) ?? []) {
      const text = ((result.content as Wire[] | undefined) ?? []).map((c) => String(c.text ?? "")).join("");
      pairs.push([calls.get(String(result.toolUseId)) ?? "", text]);
    }
  }
  return pairs;
}
