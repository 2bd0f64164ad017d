/**
 * What the Codex CLI e2e tests share: a scripted agent upstream (one shell call with a usage big enough
 * that Codex compacts, then the final answer; a Responses upstream that compacts natively), and a count
 * of the model requests the gateway served per transport and path.
 */
import { frameText } from "../../src/wire/framing/mod.ts";
import { type RecordedRequest, startMockUpstream } from "../helpers/mock_upstream.ts";
import type { NeutralResponse, Usage, WireFormat } from "../../src/model/mod.ts";
import { textAnswer, toolAnswer } from "./harness.ts";
import { codecFor } from "../../src/wire/mod.ts";
import { responseEvents } from "../../src/gateway/dispatch.ts";
import { COMPACTION_PROMPT, compactionStream, SUMMARY_HEADING } from "../../src/wire/responses/compaction.ts";
import type { DispatchInput } from "../../src/gateway/request_lifecycle.ts";
import type { TestGateway } from "../helpers/gateway.ts";

/** The opaque state the native-compacting Responses upstream hands out. */
export const UPSTREAM_STATE = "upstream-opaque-compaction-state";
/** What the agent writes when the gateway asks it for a compaction summary. */
export const SUMMARY = "SUMMARY: the user asked to greet; `echo hi` printed hi.";

function usage(inputTotal: number): Usage {
  return { inputTotal, cacheRead: 0, cacheWrite: 0, output: 8, reasoning: 0 };
}

/** The scripted agent: a shell call first (big usage, so Codex compacts), then the final answer. */
function agentTurn(request: RecordedRequest, format: WireFormat): NeutralResponse {
  const text = JSON.stringify(request.body);
  if (text.includes(COMPACTION_PROMPT.slice(0, 40))) {
    return textAnswer(SUMMARY, usage(900));
  }
  const decoded = codecFor(format).decodeRequest(request.body, { endpoint: "chat" });
  // Once the shell ran (its result, or a compaction standing for it, is in the history) the agent is done.
  const answered = decoded.messages.some((m) => m.parts.some((p) => p.kind === "toolResult")) ||
    text.includes(SUMMARY_HEADING) || text.includes(UPSTREAM_STATE);
  if (answered) return textAnswer("ALL DONE", usage(300));
  return toolAnswer([["exec_command", '{"cmd":"echo hi"}', "call_echo_1"]], "", usage(5000));
}

/** A mock upstream (chat completions or Responses, by path) playing the scripted agent. */
export async function startAgentUpstream() {
  const mock = await startMockUpstream();
  mock.script({
    handler: async (request) => {
      const format: WireFormat = request.path.endsWith("/chat/completions")
        ? "chat_completions"
        : "responses";
      const codec = codecFor(format);
      const input = request.body.input;
      if (Array.isArray(input) && input.some((item) => item?.type === "compaction_trigger")) {
        // A Responses upstream that compacts natively, like the real API.
        const item = { id: "cmp_up_1", type: "compaction", encrypted_content: UPSTREAM_STATE };
        const meta = {
          id: "resp_up_cmp",
          model: "upstream-model",
          createdAt: 1_700_000_000,
          usage: undefined,
        };
        return new Response(compactionStream(meta, item).map((frame) => frameText(frame, "sse")).join(""), {
          headers: { "content-type": "text/event-stream" },
        });
      }
      const answer = agentTurn(request, format);
      const ctx = { requestModel: String(request.body.model), now: 1_700_000_000 };
      if (request.body.stream !== true) return Response.json(codec.encodeResponse(answer, ctx));
      const sse = await Array.fromAsync(
        ReadableStream.from(responseEvents(answer)).pipeThrough(codec.encodeStream(ctx)),
      );
      return new Response(sse.join(""), { headers: { "content-type": "text/event-stream" } });
    },
  });
  return mock;
}

/** One model request as the gateway saw it arrive. */
export interface ServedRequest {
  readonly transport: "http" | "websocket";
  /**
   * `trigger`: carries a compaction_trigger (Codex's inline compaction); `summary`: a request that asks
   * for a compaction summary (the gateway's own summary call must never show up as one); else `turn`.
   */
  readonly kind: "trigger" | "summary" | "turn";
}

/**
 * Records every model request `gw` serves from now on, with the transport it came over (the gateway's
 * own DispatchInput.transport, set only by the Responses WebSocket).
 */
export function watchRequests(gw: TestGateway): ServedRequest[] {
  const served: ServedRequest[] = [];
  gw.runtime.observers.push({
    started(trace) {
      served.push({ transport: trace.input.transport ?? "http", kind: kindOf(trace.input) });
    },
    finished() {},
  });
  return served;
}

function kindOf(input: DispatchInput): ServedRequest["kind"] {
  const text = JSON.stringify(input.body);
  if (text.includes('"compaction_trigger"')) return "trigger";
  return text.includes(COMPACTION_PROMPT.slice(0, 40)) ? "summary" : "turn";
}
