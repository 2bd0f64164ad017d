/**
 * Bodies over BIG_BODY_BYTES take another road through the gateway (the body lane, a parse on the parser's
 * thread, an upstream body encoded in slices): what a client sees must not change. The same content
 * reaches the upstream, and bad bodies get the same answers as small ones.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { chatChunk, chatCompletion, post, startKindsGateway, usageRows } from "../helpers/chat_fixtures.ts";
import { startChatGateway } from "../helpers/chat_gateway.ts";
import { sse } from "../helpers/mock_upstream.ts";
import {
  countTextTokens,
  loadTokenizer,
  MESSAGE_OVERHEAD_TOKENS,
  REPLY_PRIMING_TOKENS,
} from "../../src/accounting/mod.ts";
import { truncateUtf8 } from "../../src/gateway/truncate_utf8.ts";
import { codecFor } from "../../src/wire/mod.ts";
import { startE2E, textAnswer } from "../e2e/harness.ts";
import { upstreamLabelOf } from "../helpers/format_upstream.ts";
import { noiseBase64 } from "../helpers/base64_fixtures.ts";

const MIB = 1024 * 1024;

async function errorMessage(response: Response): Promise<string> {
  const body = await response.json() as { error: { message: string } };
  return body.error.message;
}

Deno.test("a 9 MiB prompt full of characters outside the BMP reaches the upstream unchanged, whatever slice boundary its pairs meet", async () => {
  await using t = await startChatGateway();
  t.mock.script({ json: chatCompletion("ok") });
  // A surrogate pair every 4 code units, and the prompt shifted by 0-3 units: one of the four bodies puts
  // a high surrogate last in an encoding slice.
  const prompt = "ab\u{1F600}".repeat(Math.ceil(9 * MIB / 4));
  for (let shift = 0; shift < 4; shift++) {
    const content = "x".repeat(shift) + prompt;
    const response = await post(`${t.gw.url}/v1/chat/completions`, {
      model: "p/m1",
      messages: [{ role: "user", content }],
    });
    assertEquals(response.status, 200, await response.clone().text());
    await response.body?.cancel();
    const sent = t.mock.requests.at(-1)!.body as { messages: { content: string }[] };
    assert(sent.messages[0].content === content, `shift ${shift}: the upstream got other text`);
  }
});

Deno.test("a big body that is not JSON, is empty or nests too deep gets the same 400 as a small one", async () => {
  await using t = await startChatGateway();
  const pad = " ".repeat(2 * MIB);
  const broken = await post(`${t.gw.url}/v1/chat/completions`, `{"model":"p/m1",${pad}"messages":[}`);
  assertEquals(broken.status, 400);
  assertMatch(await errorMessage(broken), /^Request body is not valid JSON: /);
  const empty = await post(`${t.gw.url}/v1/chat/completions`, pad);
  assertEquals(empty.status, 400);
  assertEquals(await errorMessage(empty), "Request body is empty; expected JSON");
  const deep = await post(
    `${t.gw.url}/v1/chat/completions`,
    `{"model":"p/m1","pad":"${pad}","messages":${"[".repeat(200)}${"]".repeat(200)}}`,
  );
  assertEquals(deep.status, 400);
  assertMatch(await errorMessage(deep), /nested deeper than 128 levels/);
  assertEquals(t.mock.requests.length, 0, "nothing reached the upstream");
});

Deno.test("a big body sent without a length (chunked) is read, parsed and forwarded", async () => {
  await using t = await startChatGateway();
  t.mock.script({ json: chatCompletion("ok") });
  const content = "chunked ".repeat(3 * MIB / 8);
  const bytes = new TextEncoder().encode(
    JSON.stringify({ model: "p/m1", messages: [{ role: "user", content }] }),
  );
  let at = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + 256 * 1024));
      at += 256 * 1024;
    },
  });
  const response = await fetch(`${t.gw.url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  assertEquals(response.status, 200, await response.clone().text());
  await response.body?.cancel();
  const sent = t.mock.requests.at(-1)!.body as { messages: { content: string }[] };
  assertEquals(sent.messages[0].content.length, content.length);
});

Deno.test("a big input to embed and a big document to rerank reach the upstream unchanged", async () => {
  const { mock, gw } = await startKindsGateway([
    "text-embedding-3-small",
    "jina-reranker-v2-base-multilingual",
  ]);
  try {
    // Long enough to be encoded in slices, with pairs, quotes and newlines to escape across them.
    const text = 'say "\u{1F600}"\n'.repeat(Math.ceil(3 * MIB / 8));
    const embed = await post(`${gw.url}/v1/embeddings`, { model: "p/text-embedding-3-small", input: text });
    assertEquals(embed.status, 200, await embed.clone().text());
    await embed.body?.cancel();
    assertEquals(mock.requests.at(-1)!.body.input, text);
    const rerank = await post(`${gw.url}/v1/rerank`, {
      model: "p/jina-reranker-v2-base-multilingual",
      query: "which?",
      documents: [text, "b"],
    });
    assertEquals(rerank.status, 200, await rerank.clone().text());
    await rerank.body?.cancel();
    assertEquals(mock.requests.at(-1)!.body.documents, [text, "b"]);
  } finally {
    await gw.stop();
    await mock.close();
  }
});

Deno.test("a big prompt streamed back without usage is estimated as if counted whole, and logged by its head", async () => {
  await using t = await startChatGateway();
  t.gw.runtime.control.store.settings.set("server_request_logging", "true");
  t.gw.runtime.control.reload();
  t.mock.script({
    chunks: sse(chatChunk({ role: "assistant", content: "Hello" }), chatChunk({}, "stop"), "[DONE]"),
    contentType: "text/event-stream",
  });
  const prompt = "the gateway counts a long prompt ".repeat(3 * MIB / 33);
  const body = { model: "p/m1", stream: true, messages: [{ role: "user", content: prompt }] };
  const response = await post(`${t.gw.url}/v1/chat/completions`, body);
  assertEquals(response.status, 200);
  assert((await response.text()).includes("[DONE]"));
  const [row] = await usageRows(t.gw);
  assertEquals(row.estimated, 1);
  await loadTokenizer();
  const whole = REPLY_PRIMING_TOKENS + MESSAGE_OVERHEAD_TOKENS + await countTextTokens([prompt]);
  assertEquals(row.input_tokens, whole);
  t.gw.runtime.writer.flush();
  const [log] = t.gw.runtime.control.store.requestLogs.all();
  assertEquals(log.requestTruncated, true);
  assertEquals(log.requestBody, truncateUtf8(JSON.stringify(body)).text);
});

Deno.test("a big prompt held in pieces reaches each upstream of a fallback unchanged, whatever its format", async () => {
  await using e2e = await startE2E(
    { broken: { status: 500 }, echo: textAnswer("ok") },
    "combos:\n  - name: bigfall\n    models: [up_chat/broken, up_messages/echo]\n",
  );
  // Characters outside the BMP and ones JSON escapes, so every upstream encoding is exercised.
  const prompt = 'a "quoted" line\n\u{1F600} é '.repeat(Math.ceil(3 * MIB / 24));
  const response = await post(`${e2e.url}/v1/chat/completions`, {
    model: "bigfall",
    messages: [{ role: "user", content: prompt }],
  });
  assertEquals(response.status, 200, await response.clone().text());
  await response.body?.cancel();
  const labels = e2e.requests.map((request) => upstreamLabelOf(request.path));
  assertEquals(labels, ["chat_completions", "messages"]);
  const chat = e2e.requests[0].body as { messages: { content: string }[] };
  assert(chat.messages[0].content === prompt, "the chat upstream got other text");
  const messages = codecFor("messages").decodeRequest(e2e.requests[1].body, {});
  const text = messages.messages[0].parts.map((part) => part.kind === "text" ? part.text : "").join("");
  assert(text === prompt, "the messages upstream got other text");
});

Deno.test("a big count_tokens body reaches a messages upstream's counting endpoint unchanged", async () => {
  await using e2e = await startE2E({ echo: textAnswer("ok") });
  const prompt = 'count "this"\n\u{1F600} '.repeat(Math.ceil(3 * MIB / 16));
  const response = await post(`${e2e.url}/v1/messages/count_tokens`, {
    model: "up_messages/echo",
    messages: [{ role: "user", content: prompt }],
  });
  // This mock's counting endpoint gives no count, so the gateway counted (the heads it reads).
  assertEquals(response.status, 200, await response.clone().text());
  const counted = await response.json() as { input_tokens: number };
  assert(counted.input_tokens > MIB / 8, JSON.stringify(counted));
  assertEquals(e2e.requests.map((request) => request.path), ["/v1/messages/count_tokens"]);
  const sent = e2e.requests[0].body as { messages: { content: string }[] };
  assert(sent.messages[0].content === prompt, "the counting endpoint got other text");
});

Deno.test("a big base64 image reaches every upstream format of a fallback unchanged, from a chat, a Responses, a Messages, a Gemini and an Ollama client", async () => {
  const upstreams = [
    "up_chat",
    "up_messages",
    "up_generate",
    "up_responses",
    "up_kiro",
    "up_antigravity",
    "up_cloudcode",
  ];
  const combo = `combos:\n  - name: imagefall\n    models: [${
    upstreams.slice(0, -1).map((u) => `${u}/broken`).join(", ")
  }, up_cloudcode/echo]\n`;
  // 3 MiB of base64 (over the size held in pieces), in which `/` and `+` are frequent.
  const payload = noiseBase64(9 * MIB / 4);
  const url = `data:image/png;base64,${payload}`;
  // A JPEG's first bytes (FF D8 FF) before it: an Ollama client's bare base64 is typed by them.
  const jpeg = `/9j/${payload}`;
  const bodies: { path: string; body: unknown; url?: string }[] = [
    {
      path: "/v1/chat/completions",
      body: {
        model: "imagefall",
        messages: [{
          role: "user",
          content: [{ type: "text", text: "what is it?" }, { type: "image_url", image_url: { url } }],
        }],
      },
    },
    {
      path: "/v1/responses",
      body: {
        model: "imagefall",
        store: false,
        input: [{
          role: "user",
          content: [{ type: "input_text", text: "what is it?" }, { type: "input_image", image_url: url }],
        }],
      },
    },
    {
      path: "/v1/messages",
      body: {
        model: "imagefall",
        max_tokens: 100,
        messages: [{
          role: "user",
          content: [
            { type: "text", text: "what is it?" },
            { type: "image", source: { type: "base64", media_type: "image/png", data: payload } },
          ],
        }],
      },
    },
    {
      path: "/v1beta/models/imagefall:generateContent",
      body: {
        contents: [{
          role: "user",
          parts: [{ text: "what is it?" }, { inlineData: { mimeType: "image/png", data: payload } }],
        }],
      },
    },
    {
      path: "/api/chat",
      body: {
        model: "imagefall",
        stream: false,
        messages: [{ role: "user", content: "what is it?", images: [jpeg] }],
      },
      url: `data:image/jpeg;base64,${jpeg}`,
    },
    {
      path: "/api/generate",
      body: { model: "imagefall", stream: false, prompt: "what is it?", images: [url] },
    },
  ];
  for (const { path, body, url: upstreamUrl = url } of bodies) {
    // A gateway each: the first one's failed accounts are cooling down.
    await using e2e = await startE2E({ broken: { status: 500 }, echo: textAnswer("ok") }, combo);
    const response = await post(`${e2e.url}${path}`, body);
    assertEquals(response.status, 200, await response.clone().text());
    await response.body?.cancel();
    // Every model call (the cloud assistant fails over to its second host, `/`).
    const calls = e2e.requests.filter((request) => request.method === "POST");
    assertEquals(calls.length, upstreams.length + 1, `${path}: ${calls.map((request) => request.path)}`);
    for (const call of calls) {
      const text = JSON.stringify(call.body);
      assert(text.includes(payload), `${path} → ${call.path}: the image's payload did not arrive whole`);
      assert(!text.includes("gateway-stand-in"), `${path} → ${call.path}: a stand-in reached the upstream`);
    }
    // The chat upstream gets the client's data URL itself.
    const chat = calls[0].body as { messages: { content: { image_url?: { url: string } }[] }[] };
    assert(
      chat.messages[0].content.some((part) => part.image_url?.url === upstreamUrl),
      `${path}: the chat upstream's URL`,
    );
  }
});
