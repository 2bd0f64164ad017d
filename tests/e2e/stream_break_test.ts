/**
 * An upstream that breaks after the first byte: each client's own SDK (openai chat and responses,
 * @anthropic-ai/sdk, @google/genai, ollama) must surface an error, not a short answer that looks complete,
 * and the attempt's usage row must record the failure.
 */
import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import { Ollama } from "ollama";
import OpenAI from "openai";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { chatChunk, waitForUsageRows } from "../helpers/chat_fixtures.ts";
import { chatProvidersYaml, startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { type MockUpstream, sse, startMockUpstream } from "../helpers/mock_upstream.ts";

/** A chat-completions upstream that sends two content chunks, then drops the connection. */
async function setup(): Promise<{ gw: TestGateway; mock: MockUpstream } & AsyncDisposable> {
  const mock = await startMockUpstream();
  mock.script({
    chunks: sse(chatChunk({ role: "assistant", content: "partial " }), chatChunk({ content: "answer" })),
    breakAfter: true,
    delayMs: 20,
  });
  const gw = await startTestGateway(chatProvidersYaml([{ id: "acct-a", prefix: "p", url: mock.url }]));
  return {
    gw,
    mock,
    async [Symbol.asyncDispose]() {
      await gw.stop();
      await mock.close();
    },
  };
}

/** The one usage row of the broken attempt says 502 and why. */
async function assertFailedRow(gw: TestGateway, surface: string): Promise<void> {
  const rows = await waitForUsageRows(gw);
  assertEquals(rows.length, 1);
  assertEquals([rows[0].status, rows[0].client_format], [502, surface]);
  assertStringIncludes(String(rows[0].error), "upstream stream broke");
}

/** What a `for await` over an SDK stream collected, and what it threw. */
async function drain<T>(stream: AsyncIterable<T>): Promise<{ items: T[]; thrown: unknown }> {
  const items: T[] = [];
  try {
    for await (const item of stream) items.push(item);
  } catch (error) {
    return { items, thrown: error };
  }
  return { items, thrown: undefined };
}

Deno.test("openai SDK chat completions: a stream broken mid-answer throws an APIError after the partial text", async () => {
  await using t = await setup();
  const client = new OpenAI({ baseURL: `${t.gw.url}/v1`, apiKey: "anything", maxRetries: 0 });
  const stream = await client.chat.completions.create({
    model: "p/m1",
    stream: true,
    messages: [{ role: "user", content: "hi" }],
  });
  const { items, thrown } = await drain(stream);
  assertEquals(items.map((c) => c.choices[0]?.delta?.content ?? "").join(""), "partial answer");
  assert(thrown instanceof OpenAI.APIError, `expected an APIError, got ${thrown}`);
  assertStringIncludes(thrown.message, "upstream stream broke");
  await assertFailedRow(t.gw, "chat_completions");
});

Deno.test("openai SDK responses: a stream broken mid-answer ends with response.failed carrying the error", async () => {
  await using t = await setup();
  const client = new OpenAI({ baseURL: `${t.gw.url}/v1`, apiKey: "anything", maxRetries: 0 });
  const stream = await client.responses.create({ model: "p/m1", stream: true, input: "hi" });
  const { items, thrown } = await drain(stream);
  assertEquals(thrown, undefined);
  const last = items.at(-1)!;
  assert(last.type === "response.failed", `last event ${last.type}`);
  assertEquals(last.response.status, "failed");
  assertStringIncludes(last.response.error?.message ?? "", "upstream stream broke");
  assert(!items.some((e) => e.type === "response.completed"), "never reported as completed");
  await assertFailedRow(t.gw, "responses");
});

Deno.test("@anthropic-ai/sdk messages: a stream broken mid-answer throws an APIError (event: error)", async () => {
  await using t = await setup();
  const client = new Anthropic({ baseURL: t.gw.url, apiKey: "anything", maxRetries: 0 });
  const stream = await client.messages.create({
    model: "p/m1",
    max_tokens: 100,
    stream: true,
    messages: [{ role: "user", content: "hi" }],
  });
  const { items, thrown } = await drain(stream);
  assert(items.some((e) => e.type === "content_block_delta"), "the partial text reached the client");
  assert(!items.some((e) => e.type === "message_stop"), "never reported as stopped");
  assert(thrown instanceof Anthropic.APIError, `expected an APIError, got ${thrown}`);
  assertStringIncludes(thrown.message, "upstream stream broke");
  await assertFailedRow(t.gw, "messages");
});

Deno.test("@google/genai: a stream broken mid-answer throws an ApiError with the 502", async () => {
  await using t = await setup();
  const client = new GoogleGenAI({ apiKey: "anything", httpOptions: { baseUrl: t.gw.url } });
  const stream = await client.models.generateContentStream({ model: "p/m1", contents: "hi" });
  const { items, thrown } = await drain(stream);
  assertEquals(items.map((c) => c.text ?? "").join(""), "partial answer");
  assert(thrown instanceof Error, `expected an error, got ${thrown}`);
  assertStringIncludes(thrown.message, "upstream stream broke");
  assertEquals((thrown as Error & { status?: number }).status, 502);
  await assertFailedRow(t.gw, "generate_content");
});

Deno.test("ollama SDK: a chat stream broken mid-answer throws with the gateway's message", async () => {
  await using t = await setup();
  const client = new Ollama({ host: t.gw.url });
  const stream = await client.chat({
    model: "p/m1",
    stream: true,
    messages: [{ role: "user", content: "hi" }],
  });
  const { items, thrown } = await drain(stream);
  assertEquals(items.map((c) => c.message.content).join(""), "partial answer");
  assert(!items.some((c) => c.done), "never reported as done");
  assert(thrown instanceof Error, `expected an error, got ${thrown}`);
  assertStringIncludes(thrown.message, "upstream stream broke");
  await assertFailedRow(t.gw, "local_runner");
});

/** An upstream of `apiType` (at `path` under the mock) that sends `events` as SSE, then drops the connection. */
async function passthroughSetup(apiType: string, path: string, events: [string, unknown][]) {
  const mock = await startMockUpstream();
  mock.script({
    chunks: events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`),
    breakAfter: true,
    delayMs: 20,
  });
  const gw = await startTestGateway(
    chatProvidersYaml([{ id: "acct-a", prefix: "p", url: `${mock.url}${path}`, apiType }]),
  );
  return {
    gw,
    mock,
    async [Symbol.asyncDispose]() {
      await gw.stop();
      await mock.close();
    },
  };
}

Deno.test("openai SDK responses.stream() over a Responses upstream (passthrough): the break is a response.failed of the same response", async () => {
  const response = {
    id: "resp_up_1",
    object: "response",
    created_at: 1,
    status: "in_progress",
    model: "m1",
    output: [],
  };
  const item = { id: "msg_1", type: "message", role: "assistant", status: "in_progress", content: [] };
  const at = { item_id: "msg_1", output_index: 0, content_index: 0 };
  await using t = await passthroughSetup("responses_native", "/v1", [
    ["response.created", { type: "response.created", sequence_number: 0, response }],
    ["response.output_item.added", {
      type: "response.output_item.added",
      sequence_number: 1,
      output_index: 0,
      item,
    }],
    ["response.content_part.added", {
      type: "response.content_part.added",
      sequence_number: 2,
      ...at,
      part: { type: "output_text", text: "", annotations: [] },
    }],
    ["response.output_text.delta", {
      type: "response.output_text.delta",
      sequence_number: 3,
      ...at,
      delta: "partial ",
    }],
  ]);
  const client = new OpenAI({ baseURL: `${t.gw.url}/v1`, apiKey: "anything", maxRetries: 0 });
  const stream = client.responses.stream({ model: "p/m1", input: "hi" });
  const { items, thrown } = await drain(stream);
  assertEquals(thrown, undefined, `the helper accepted every event: ${thrown}`);
  const last = items.at(-1)!;
  assert(last.type === "response.failed", `last event ${last.type}`);
  assertEquals(last.response.id, "resp_up_1");
  assertStringIncludes(last.response.error?.message ?? "", "upstream stream broke");
  await assertFailedRow(t.gw, "responses");
});

Deno.test("@anthropic-ai/sdk over a messages upstream (passthrough): the break throws an APIError", async () => {
  await using t = await passthroughSetup("messages_native", "", [
    ["message_start", {
      type: "message_start",
      message: {
        id: "msg_up_1",
        type: "message",
        role: "assistant",
        model: "m1",
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 3, output_tokens: 0 },
      },
    }],
    ["content_block_start", {
      type: "content_block_start",
      index: 0,
      content_block: { type: "text", text: "" },
    }],
    ["content_block_delta", {
      type: "content_block_delta",
      index: 0,
      delta: { type: "text_delta", text: "partial " },
    }],
  ]);
  const client = new Anthropic({ baseURL: t.gw.url, apiKey: "anything", maxRetries: 0 });
  const stream = await client.messages.create({
    model: "p/m1",
    max_tokens: 100,
    stream: true,
    messages: [{ role: "user", content: "hi" }],
  });
  const { items, thrown } = await drain(stream);
  assert(items.some((e) => e.type === "content_block_delta"), "the partial text reached the client");
  assert(thrown instanceof Anthropic.APIError, `expected an APIError, got ${thrown}`);
  assertStringIncludes(thrown.message, "upstream stream broke");
  await assertFailedRow(t.gw, "messages");
});
