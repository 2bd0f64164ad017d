/**
 * Gemini 3 signs text answers too: the `thoughtSignature` on the last text part of a turn. A client
 * whose format has no place for it replays the turn as plain text; the gateway keeps the signature by the
 * turn's text and puts it back on the way to a Gemini upstream, from every client surface, stream and not.
 */
import type { NeutralRequest, WireFormat } from "../../src/model/mod.ts";
import { codecFor } from "../../src/wire/mod.ts";
import { assertEquals } from "../helpers/assert.ts";
import { decodeClientBytes } from "../helpers/collect.ts";
import { startTestGateway } from "../helpers/gateway.ts";
import { startMockUpstream } from "../helpers/mock_upstream.ts";

const CLIENTS: readonly WireFormat[] = [
  "chat_completions",
  "responses",
  "messages",
  "generate_content",
  "local_runner",
];
const ROUTE = "gem/gemini-3-pro";
const SIGNATURE = "sig-text-turn-one";
const USAGE = { promptTokenCount: 10, candidatesTokenCount: 4, totalTokenCount: 14 };

/** Turn one's answer, split over two parts with the signature on the last, as Gemini 3 sends it. */
const FIRST = [{ text: "Paris is " }, { text: "sunny.", thoughtSignature: SIGNATURE }];

function candidate(parts: unknown[], finish?: string) {
  return {
    candidates: [{
      content: { role: "model", parts },
      index: 0,
      ...(finish ? { finishReason: finish } : {}),
    }],
  };
}

/** The Gemini upstream: the signed text for turn one, plain text after. */
function answer(body: Record<string, unknown>, stream: boolean): Response {
  const parts = (body.contents as unknown[]).length === 1 ? FIRST : [{ text: "Glad to help." }];
  if (!stream) return Response.json({ ...candidate(parts, "STOP"), usageMetadata: USAGE });
  const chunks = parts.map((part, i) =>
    i === parts.length - 1 ? { ...candidate([part], "STOP"), usageMetadata: USAGE } : candidate([part])
  );
  const text = chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`).join("");
  return new Response(text, { headers: { "content-type": "text/event-stream" } });
}

function neutral(messages: NeutralRequest["messages"], stream: boolean): NeutralRequest {
  return {
    model: ROUTE,
    system: [],
    messages,
    tools: [],
    params: { maxTokens: 256 },
    stream,
    source: "chat_completions",
  };
}

async function send(url: string, client: WireFormat, request: NeutralRequest): Promise<string> {
  const body = codecFor(client).encodeRequest(request, ROUTE).body;
  const path = {
    chat_completions: "/v1/chat/completions",
    responses: "/v1/responses",
    messages: "/v1/messages",
    generate_content: `/v1beta/models/${ROUTE}:${
      request.stream ? "streamGenerateContent?alt=sse" : "generateContent"
    }`,
    local_runner: "/api/chat",
  }[client];
  if (client === "local_runner") body.stream = request.stream;
  const response = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "anthropic-version": "2023-06-01" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  assertEquals(response.status, 200, text.slice(0, 300));
  return text;
}

Deno.test("a Gemini thoughtSignature on answer text comes back to the upstream from every client surface", async (t) => {
  const mock = await startMockUpstream();
  mock.script({
    handler: (request) => answer(request.body, request.path.includes(":streamGenerateContent")),
  });
  const gw = await startTestGateway(
    `providers:\n  - id: gem-1\n    prefix: gem\n    api_type: generate_native\n    base_url: ${mock.url}\n` +
      `    api_key: k\n    models: [gemini-3-pro]\n`,
  );
  try {
    for (const client of CLIENTS) {
      for (const stream of [false, true]) {
        await t.step(`${client} ${stream ? "stream" : "non-stream"}`, async () => {
          // Each case its own question: the turn's text would otherwise be the same for every case.
          const user = {
            role: "user" as const,
            parts: [{ kind: "text" as const, text: `Weather? (${client} ${stream})` }],
          };
          const first = await decodeClientBytes(
            client,
            stream,
            await send(gw.url, client, neutral([user], stream)),
          );
          const reply = first.parts.filter((p) => p.kind === "text");
          assertEquals(reply.map((p) => p.kind === "text" ? p.text : "").join(""), "Paris is sunny.");
          const history = [user, { role: "assistant" as const, parts: reply }, {
            role: "user" as const,
            parts: [{ kind: "text" as const, text: "Thanks" }],
          }];
          await send(gw.url, client, neutral(history, stream));
          const contents = mock.requests.at(-1)!.body.contents as {
            role: string;
            parts: Record<string, unknown>[];
          }[];
          assertEquals(contents.length, 3);
          const model = contents[1].parts;
          assertEquals(model.map((p) => p.text).join(""), "Paris is sunny.");
          assertEquals(model.at(-1)!.thoughtSignature, SIGNATURE, JSON.stringify(model));
        });
      }
    }
  } finally {
    await gw.stop();
    await mock.close();
  }
});
