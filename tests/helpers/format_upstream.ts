/**
 * A mock upstream that speaks every upstream wire format, answering from the neutral fixture through
 * the codecs: the model field names the scenario, the path names the format.
 */
import type { NeutralResponse, StreamEvent, WireFormat } from "../../src/model/mod.ts";
import { codecFor } from "../../src/wire/mod.ts";
import { type RecordedRequest, startMockUpstream } from "./mock_upstream.ts";
import { responseEvents } from "../../src/gateway/dispatch.ts";

/** What the mock should do for one scenario name. */
export type UpstreamBehaviour =
  | { readonly kind: "answer"; readonly response: NeutralResponse }
  | { readonly kind: "fail"; readonly status: number }
  | { readonly kind: "break_after_text"; readonly text: string };

/** The format an upstream request was sent in, from its path. */
export function formatOfPath(path: string): WireFormat {
  if (path.endsWith("/chat/completions")) return "chat_completions";
  if (path.endsWith("/messages")) return "messages";
  if (path.endsWith("/responses")) return "responses";
  if (path.startsWith("/v1beta/models/")) return "generate_content";
  return "local_runner";
}

/** The scenario named by an upstream request (model field, or the URL for generate-content). */
export function scenarioOf(request: RecordedRequest): string {
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
      const format = formatOfPath(request.path);
      const codec = codecFor(format);
      const stream = request.body.stream === true || request.path.includes("streamGenerateContent");
      const plan = behaviour(scenarioOf(request));
      const ctx = { requestModel: scenarioOf(request), now: 1_700_000_000 };
      if (plan.kind === "fail") {
        return Response.json({ error: { message: "upstream exploded" } }, { status: plan.status });
      }
      if (plan.kind === "break_after_text") {
        const events: StreamEvent[] = [
          { type: "start", id: "fixture-0001", model: "fixture-model" },
          { type: "blockStart", index: 0, kind: "text" },
          { type: "textDelta", index: 0, text: plan.text },
          { type: "error", status: 500, kind: "upstream", message: "upstream died mid-answer" },
        ];
        return streamOf(codec.framing, ReadableStream.from(events).pipeThrough(codec.encodeStream(ctx)));
      }
      if (!stream) return Response.json(codec.encodeResponse(plan.response, ctx));
      return streamOf(
        codec.framing,
        ReadableStream.from(responseEvents(plan.response)).pipeThrough(codec.encodeStream(ctx)),
      );
    },
  });
  return mock;
}

async function streamOf(framing: "sse" | "ndjson", text: ReadableStream<string>): Promise<Response> {
  const body = (await Array.fromAsync(text)).join("");
  return new Response(body, {
    headers: { "content-type": framing === "ndjson" ? "application/x-ndjson" : "text/event-stream" },
  });
}
