/**
 * A mock upstream that signs its tool turns and checks the signatures come back, like the real APIs:
 * a Gemini 3 generate-content upstream (thoughtSignature on functionCall parts; a second turn without
 * it is a 400), a messages upstream with thinking on (signed thinking must open the tool-use turn), and
 * a Responses upstream that returns encrypted reasoning when asked via `include` (and requires it back).
 * Turn one answers with a get_weather call; turn two (the tool result present) checks and answers text.
 */
import type { NeutralResponse, Part, WireFormat } from "../../src/model/mod.ts";
import { responseEvents } from "../../src/gateway/dispatch.ts";
import { codecFor } from "../../src/wire/mod.ts";
import { isRecord } from "../../src/wire/shared/mod.ts";
import { formatOfPath, scenarioOf } from "./format_upstream.ts";
import { type MockUpstream, type RecordedRequest, startMockUpstream } from "./mock_upstream.ts";

/** The tokens each upstream issues on turn one. */
export const TOKENS = {
  geminiCall: "SIG-G-call-1",
  geminiThought: "SIG-G-thought-1",
  thinking: "SIG-A-thinking-1",
  thinkingText: "The user wants the weather; I will call get_weather.",
  encrypted: "ENC-R-reasoning-1",
  skip: "skip_thought_signature_validator",
} as const;

/** What the checking upstream saw on each second turn. */
export interface SigningMock extends MockUpstream {
  /** Rejections it answered (turn-two requests that lacked their tokens). */
  readonly rejections: string[];
}

const USAGE = { inputTotal: 20, cacheRead: 0, cacheWrite: 0, output: 8, reasoning: 0 };

function firstTurn(format: WireFormat): NeutralResponse {
  const call: Part = { kind: "toolCall", id: "", name: "get_weather", arguments: '{"city":"Paris"}' };
  let parts: Part[];
  switch (format) {
    case "generate_content":
      parts = [
        {
          kind: "reasoning",
          text: "Weather needs a tool.",
          signature: TOKENS.geminiThought,
          family: "google",
        },
        { ...call, id: "", signature: TOKENS.geminiCall, family: "google" },
      ];
      break;
    case "messages":
      parts = [
        { kind: "reasoning", text: TOKENS.thinkingText, signature: TOKENS.thinking, family: "anthropic" },
        { ...call, id: "toolu_01weather" },
      ];
      break;
    default:
      parts = [
        { kind: "reasoning", text: "Need the weather.", redactedData: TOKENS.encrypted, family: "openai" },
        { ...call, id: "call_weather_1" },
      ];
  }
  return {
    id: "sig-turn-1",
    model: "upstream-model",
    parts,
    finish: { unified: "tool_calls", raw: null },
    usage: USAGE,
  };
}

const SECOND: NeutralResponse = {
  id: "sig-turn-2",
  model: "upstream-model",
  parts: [{ kind: "text", text: "It is 18C in Paris." }],
  finish: { unified: "stop", raw: null },
  usage: USAGE,
};

/** Why a turn-two request would be rejected by the real API, or null when it is fine. */
function problem(format: WireFormat, body: Record<string, unknown>, lenient: boolean): string | null {
  switch (format) {
    case "generate_content": {
      const contents = body.contents as { role: string; parts: Record<string, unknown>[] }[];
      const model = contents.find((c) => c.role === "model" && c.parts.some((p) => p.functionCall));
      const call = model?.parts.find((p) => p.functionCall);
      const ok = call?.thoughtSignature === TOKENS.geminiCall ||
        (lenient && call?.thoughtSignature === TOKENS.skip);
      return ok ? null : "Function call is missing a thought_signature in functionCall parts";
    }
    case "messages": {
      if (!isRecord(body.thinking) || body.thinking.type === "disabled") return null;
      const messages = body.messages as { role: string; content: unknown }[];
      const last = messages.findLast((m) => m.role === "assistant");
      const first = Array.isArray(last?.content) ? last.content[0] : undefined;
      const ok = isRecord(first) && first.type === "thinking" && first.signature === TOKENS.thinking &&
        first.thinking === TOKENS.thinkingText;
      return ok
        ? null
        : "messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`";
    }
    default: {
      const input = body.input as Record<string, unknown>[];
      const ok = input.some((i) => i.type === "reasoning" && i.encrypted_content === TOKENS.encrypted);
      return ok || lenient ? null : "reasoning item with encrypted_content missing before function_call";
    }
  }
}

function hasToolResult(format: WireFormat, request: RecordedRequest): boolean {
  const decoded = codecFor(format).decodeRequest(request.body, {
    pathModel: `x/${scenarioOf(request)}`,
    endpoint: "chat",
  });
  return decoded.messages.some((m) => m.parts.some((p) => p.kind === "toolResult"));
}

/**
 * Starts the signing upstream. `lenient` accepts what the real APIs accept when a token is truly lost
 * (Gemini's documented skip value; a Responses turn without its reasoning).
 */
export async function startSigningUpstream(options: { lenient?: boolean } = {}): Promise<SigningMock> {
  const mock = await startMockUpstream();
  const rejections: string[] = [];
  mock.script({
    handler: async (request) => {
      const format = formatOfPath(request.path);
      const codec = codecFor(format);
      const stream = request.body.stream === true || request.path.includes("streamGenerateContent");
      let answer: NeutralResponse;
      if (!hasToolResult(format, request)) {
        // The Responses API returns encrypted reasoning only when asked for it.
        const asked = format !== "responses" ||
          (Array.isArray(request.body.include) &&
            request.body.include.includes("reasoning.encrypted_content"));
        answer = asked
          ? firstTurn(format)
          : { ...firstTurn(format), parts: firstTurn(format).parts.slice(1) };
      } else {
        const why = problem(format, request.body, options.lenient === true);
        if (why !== null) {
          rejections.push(why);
          return Response.json({ error: { type: "invalid_request_error", message: why } }, { status: 400 });
        }
        answer = SECOND;
      }
      const ctx = { requestModel: "upstream-model", now: 1_700_000_000 };
      if (!stream) return Response.json(codec.encodeResponse(answer, ctx));
      const text = (await Array.fromAsync(
        ReadableStream.from(responseEvents(answer)).pipeThrough(codec.encodeStream(ctx)),
      )).join("");
      return new Response(text, { headers: { "content-type": "text/event-stream" } });
    },
  });
  return Object.assign(mock, { rejections });
}
