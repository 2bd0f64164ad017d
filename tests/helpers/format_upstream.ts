/**
 * A mock upstream that speaks every upstream wire format, answering from the neutral fixture through
 * the codecs: the model field names the scenario, the path names the format.
 */
import type { NeutralResponse, StreamEvent, WireFormat } from "../../src/model/mod.ts";
import { codecFor } from "../../src/wire/mod.ts";
import { type RecordedRequest, startMockUpstream } from "./mock_upstream.ts";
import { responseEvents } from "../../src/gateway/dispatch.ts";
import { kiroBrokenFrames, kiroFrames, kiroModel, splitEventStream } from "./kiro_wire.ts";

/**
 * What an upstream request spoke: a wire format, Google Cloud Code (generate-content in the v1internal
 * envelope) or the cloud assistant (conversation state, event-stream answers).
 */
export type UpstreamLabel = WireFormat | "cloud_code" | "cloud_assistant";

/** What the mock should do for one scenario name. */
export type UpstreamBehaviour =
  | { readonly kind: "answer"; readonly response: NeutralResponse }
  | { readonly kind: "fail"; readonly status: number }
  | { readonly kind: "break_after_text"; readonly text: string };

/** The format an upstream request was sent in, from its path. */
export function formatOfPath(path: string): WireFormat {
  const label = upstreamLabelOf(path);
  if (label === "cloud_code" || label === "cloud_assistant") {
    throw new Error(`${path} is not a plain wire format`);
  }
  return label;
}

/** What an upstream request spoke, from its path: a wire format or one of the enveloped/own kinds. */
export function upstreamLabelOf(path: string): UpstreamLabel {
  if (path.includes("/v1internal:")) return "cloud_code";
  // The cloud assistant's second host (the Q origin/target pair) is asked at the base URL itself.
  if (path.endsWith("/generateAssistantResponse") || path === "/") return "cloud_assistant";
  if (path.endsWith("/chat/completions")) return "chat_completions";
  if (path.endsWith("/messages")) return "messages";
  if (path.endsWith("/responses")) return "responses";
  if (path.startsWith("/v1beta/models/")) return "generate_content";
  return "local_runner";
}

/** The scenario named by an upstream request (model field, or the URL for generate-content). */
export function scenarioOf(request: RecordedRequest): string {
  if (upstreamLabelOf(request.path) === "cloud_assistant") return kiroModel(request.body);
  if (request.path.startsWith("/v1beta/models/")) {
    return decodeURIComponent(request.path.slice("/v1beta/models/".length).split(":")[0]);
  }
  return String(request.body.model);
}

/** Starts the multi-format mock. */
export async function startFormatUpstream(behaviour: (scenario: string) => UpstreamBehaviour) {
  const mock = await startMockUpstream();
  mock.script({
    handler: (request) => {
      const label = upstreamLabelOf(request.path);
      const plan = behaviour(scenarioOf(request));
      if (plan.kind === "fail") {
        return Response.json({ error: { message: "upstream exploded" } }, { status: plan.status });
      }
      if (label === "cloud_assistant") {
        return splitEventStream(
          plan.kind === "answer" ? kiroFrames(plan.response) : kiroBrokenFrames(plan.text),
        );
      }
      const format = label === "cloud_code" ? "generate_content" : label;
      const codec = codecFor(format);
      const stream = request.body.stream === true || request.path.includes("streamGenerateContent");
      const ctx = { requestModel: scenarioOf(request), now: 1_700_000_000 };
      // Cloud Code wraps every answer, JSON or SSE event, as {response: …, traceId}.
      const wrap = label === "cloud_code" ? cloudCodeWrap : (text: string) => text;
      if (plan.kind === "break_after_text") {
        const events: StreamEvent[] = [
          { type: "start", id: "fixture-0001", model: "fixture-model" },
          { type: "blockStart", index: 0, kind: "text" },
          { type: "textDelta", index: 0, text: plan.text },
          { type: "error", status: 500, kind: "upstream", message: "upstream died mid-answer" },
        ];
        return streamOf(
          codec.framing,
          ReadableStream.from(events).pipeThrough(codec.encodeStream(ctx)),
          wrap,
        );
      }
      if (!stream) {
        const body = codec.encodeResponse(plan.response, ctx);
        return Response.json(label === "cloud_code" ? { response: body, traceId: "trace-1" } : body);
      }
      return streamOf(
        codec.framing,
        ReadableStream.from(responseEvents(plan.response)).pipeThrough(codec.encodeStream(ctx)),
        wrap,
      );
    },
  });
  return mock;
}

/** Wraps the data of every SSE event as Cloud Code does. */
function cloudCodeWrap(event: string): string {
  return event.replace(
    /^data: (.*)$/gm,
    (_, data: string) => `data: {"response":${data},"traceId":"trace-1"}`,
  );
}

async function streamOf(
  framing: "sse" | "ndjson",
  text: ReadableStream<string>,
  wrap: (event: string) => string = (t) => t,
): Promise<Response> {
  const body = (await Array.fromAsync(text)).map(wrap).join("");
  return new Response(body, {
    headers: { "content-type": framing === "ndjson" ? "application/x-ndjson" : "text/event-stream" },
  });
}
