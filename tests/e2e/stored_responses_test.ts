/**
 * Stored Responses API state for any upstream (issue 30, point 1), through the real `openai` SDK: a response
 * stored by default is continued with `previous_response_id` over HTTP and its items are named with
 * `item_reference`, whatever format the upstream speaks (the upstream receives the whole conversation);
 * GET, input_items and DELETE work; another key, a deleted or expired response, and `store: false` get the
 * API's own errors.
 */
import OpenAI from "openai";
import { assert, assertEquals } from "../helpers/assert.ts";
import { chatProvidersYaml, startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { type MockUpstream, sse, startMockUpstream } from "../helpers/mock_upstream.ts";

const KEY_A = "sk-store-test-key-a-0123456789";
const KEY_B = "sk-store-test-key-b-0123456789";
const KEYS = `server:\n  require_api_key: true\napi_keys:\n  - key: ${KEY_A}\n    client_key_label: a\n` +
  `  - key: ${KEY_B}\n    client_key_label: b\n`;

let served = 0;

/** A chat-completions answer with a fresh id (the response id the client sees derives from it). */
function chatAnswer(message: Record<string, unknown>, finish = "stop"): { json: unknown } {
  return {
    json: {
      id: `chatcmpl-${++served}`,
      object: "chat.completion",
      created: 1,
      model: "m1",
      choices: [{ index: 0, finish_reason: finish, message: { role: "assistant", ...message } }],
      usage: { prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 },
    },
  };
}

/** The same answer as a chat-completions stream (what a streaming upstream sends). */
function chatStream(text: string): { chunks: string[]; contentType: string } {
  const id = `chatcmpl-${++served}`;
  const chunk = (delta: Record<string, unknown>, finish: string | null) => ({
    id,
    object: "chat.completion.chunk",
    created: 1,
    model: "m1",
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  return {
    chunks: sse(chunk({ role: "assistant", content: text }, null), chunk({}, "stop"), "[DONE]"),
    contentType: "text/event-stream",
  };
}

/** A messages answer with a fresh id. */
function messagesAnswer(text: string): { json: unknown } {
  return {
    json: {
      id: `msg_up${++served}`,
      type: "message",
      role: "assistant",
      model: "m1",
      content: [{ type: "text", text }],
      stop_reason: "end_turn",
      usage: { input_tokens: 5, output_tokens: 5 },
    },
  };
}

interface Setup {
  readonly upstream: MockUpstream;
  readonly gateway: TestGateway;
  readonly a: OpenAI;
  readonly b: OpenAI;
  readonly clock: { now: number };
  stop(): Promise<void>;
}

async function setup(apiType = "chat_compat"): Promise<Setup> {
  const upstream = await startMockUpstream();
  const clock = { now: Date.UTC(2026, 10, 1) };
  const gateway = await startTestGateway(
    chatProvidersYaml([{ id: "up-1", prefix: "up", url: upstream.url, apiType }], KEYS),
    { now: () => clock.now },
  );
  const client = (apiKey: string) => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey, maxRetries: 0 });
  return {
    upstream,
    gateway,
    a: client(KEY_A),
    b: client(KEY_B),
    clock,
    async stop() {
      await gateway.stop();
      await upstream.close();
    },
  };
}

/** The texts of the messages an upstream request carried, role by role (chat or messages format). */
function conversation(body: Record<string, unknown>): string[] {
  const messages = body.messages as { role: string; content: unknown }[];
  return messages.map((m) => {
    const content = typeof m.content === "string"
      ? m.content
      : (m.content as { type: string; text?: string }[]).filter((p) => p.type === "text").map((p) => p.text)
        .join("");
    return `${m.role}: ${content}`;
  });
}

/** The status and error body of a failed SDK call. */
async function failure(call: Promise<unknown>): Promise<{ status: number; error: unknown }> {
  try {
    await call;
  } catch (error) {
    if (error instanceof OpenAI.APIError) return { status: error.status ?? 0, error: error.error };
    throw error;
  }
  throw new Error("the call succeeded");
}

for (const apiType of ["chat_compat", "messages_native"]) {
  Deno.test(`previous_response_id over HTTP continues a stored conversation on a ${apiType} upstream`, async (t) => {
    const s = await setup(apiType);
    try {
      for (const stream of [false, true]) {
        // A chat upstream streams too; the messages mock answers whole (the gateway streams it to the client).
        const answer = (text: string) =>
          apiType !== "chat_compat"
            ? messagesAnswer(text)
            : stream
            ? chatStream(text)
            : chatAnswer({ content: text });
        await t.step(stream ? "stream" : "JSON", async () => {
          s.upstream.requests.length = 0;
          s.upstream.script(answer("Hello there."), answer("Still here."));
          const ask = async (body: OpenAI.Responses.ResponseCreateParamsNonStreaming) => {
            if (!stream) return await s.a.responses.create(body);
            let done: OpenAI.Responses.Response | undefined;
            for await (const event of await s.a.responses.create({ ...body, stream: true })) {
              if (event.type === "response.completed") done = event.response;
            }
            if (done === undefined) throw new Error("no response.completed");
            return done;
          };
          const first = await ask({ model: "up/m1", instructions: "Be brief.", input: "Hi" });
          const second = await ask({ model: "up/m1", previous_response_id: first.id, input: "Still there?" });
          assertEquals(JSON.stringify(second.output).includes("Still here."), true);
          const sent = s.upstream.requests[1].body;
          assertEquals(conversation(sent), ["user: Hi", "assistant: Hello there.", "user: Still there?"]);
          // The instructions are the new request's own, as the API does (they are not carried over).
          assert(!JSON.stringify(sent).includes("Be brief."), "earlier instructions were carried over");
        });
      }
    } finally {
      await s.stop();
    }
  });
}

Deno.test("GET, input_items and DELETE serve a stored response to its own key only", async () => {
  const s = await setup();
  try {
    s.upstream.script(chatAnswer({ content: "Hello there." }));
    const created = await s.a.responses.create({
      model: "up/m1",
      input: [{ role: "user", content: "one" }, { role: "user", content: "two" }],
    });
    const fetched = await s.a.responses.retrieve(created.id);
    assertEquals(fetched.id, created.id);
    assertEquals(fetched.output, created.output);
    assertEquals((fetched as unknown as { store: boolean }).store, true);

    const page = await s.a.responses.inputItems.list(created.id, { order: "asc", limit: 1 });
    assertEquals(page.data.length, 1);
    assertEquals(page.has_more, true);
    const texts = (await s.a.responses.inputItems.list(created.id, { order: "asc" })).data.map((item) =>
      item.type === "message" ? JSON.stringify(item.content) : item.type
    );
    assert(texts[0].includes("one") && texts[1].includes("two"), `input items ${texts}`);
    const raw = await fetch(
      `${s.gateway.url}/v1/responses/${created.id}/input_items?after=${page.data[0].id}`,
      {
        headers: { authorization: `Bearer ${KEY_A}` },
      },
    );
    const list = await raw.json();
    // Newest first by default; after the first (oldest) item nothing older is left.
    assertEquals({ object: list.object, data: list.data, has_more: list.has_more }, {
      object: "list",
      data: [],
      has_more: false,
    });

    // Another key: the API's own 404, as if the response did not exist.
    const notFound = {
      message: `Response with id '${created.id}' not found.`,
      type: "invalid_request_error",
      param: null,
      code: null,
    };
    assertEquals(await failure(s.b.responses.retrieve(created.id)), { status: 404, error: notFound });
    assertEquals(await failure(s.b.responses.delete(created.id)), { status: 404, error: notFound });
    const other = await failure(
      s.b.responses.create({ model: "up/m1", previous_response_id: created.id, input: "x" }),
    );
    assertEquals(other, {
      status: 400,
      error: {
        message: `Previous response with id '${created.id}' not found.`,
        type: "invalid_request_error",
        param: "previous_response_id",
        code: "previous_response_not_found",
      },
    });

    const deleted = await fetch(`${s.gateway.url}/v1/responses/${created.id}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${KEY_A}` },
    });
    assertEquals(await deleted.json(), { id: created.id, object: "response", deleted: true });
    assertEquals(await failure(s.a.responses.retrieve(created.id)), { status: 404, error: notFound });
    assertEquals((await failure(s.a.responses.inputItems.list(created.id))).status, 404);
  } finally {
    await s.stop();
  }
});

Deno.test("store: false keeps nothing, and a stored response is gone after its TTL", async () => {
  const s = await setup();
  try {
    s.upstream.script(chatAnswer({ content: "a" }), chatAnswer({ content: "b" }));
    const unstored = await s.a.responses.create({ model: "up/m1", input: "Hi", store: false });
    assertEquals((await failure(s.a.responses.retrieve(unstored.id))).status, 404);

    const stored = await s.a.responses.create({ model: "up/m1", input: "Hi" });
    s.clock.now += 29 * 24 * 3600 * 1000;
    assertEquals((await s.a.responses.retrieve(stored.id)).id, stored.id);
    s.clock.now += 2 * 24 * 3600 * 1000;
    assertEquals((await failure(s.a.responses.retrieve(stored.id))).status, 404);
    const expired = await failure(
      s.a.responses.create({ model: "up/m1", previous_response_id: stored.id, input: "x" }),
    );
    assertEquals(expired.status, 400);
    // The fields the store reads are refused with a wrong type, not taken as absent: an id ignored would lose
    // the conversation's history unseen, a `store: "false"` would keep what the client asked not to keep.
    const mistyped = await failure(s.a.responses.create({
      model: "up/m1",
      previous_response_id: { id: stored.id } as unknown as string,
      input: "x",
    }));
    assertEquals(mistyped.status, 400);
    assertEquals((mistyped.error as { message: string }).message, "previous_response_id: must be a string");
    const storeText = await failure(
      s.a.responses.create({ model: "up/m1", store: "false" as unknown as boolean, input: "x" }),
    );
    assertEquals(storeText.status, 400);
    assertEquals((storeText.error as { message: string }).message, "store: must be a boolean");
  } finally {
    await s.stop();
  }
});

Deno.test("item_reference resolves to a stored reasoning item, tool call and message", async () => {
  const s = await setup();
  try {
    const thought = "Paris first; call get_weather.";
    s.upstream.script(
      chatAnswer({
        content: "Let me check.",
        reasoning_content: thought,
        tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: "{}" } }],
      }, "tool_calls"),
      chatAnswer({ content: "Sunny." }),
    );
    const tool = {
      type: "function" as const,
      name: "get_weather",
      parameters: { type: "object", properties: {} },
      strict: false,
    };
    const first = await s.a.responses.create({ model: "up/m1", input: "Weather in Paris?", tools: [tool] });
    const ids = first.output.map((item) => ({ type: item.type, id: item.id ?? "" }));
    assertEquals(ids.map((i) => i.type), ["reasoning", "message", "function_call"]);
    await s.a.responses.create({
      model: "up/m1",
      tools: [tool],
      input: [
        { role: "user", content: "Weather in Paris?" },
        ...ids.map(({ id }) => ({ type: "item_reference" as const, id })),
        { type: "function_call_output", call_id: "call_1", output: "sunny" },
      ],
    });
    const sent = s.upstream.requests[1].body.messages as Record<string, unknown>[];
    assertEquals(sent[1].role, "assistant");
    assertEquals(sent[1].reasoning_content, thought);
    assertEquals(sent[1].content, "Let me check.");
    assertEquals((sent[1].tool_calls as { id: string }[])[0].id, "call_1");
    assertEquals(sent[2], { role: "tool", tool_call_id: "call_1", content: "sunny" });

    const unknown = await failure(s.a.responses.create({
      model: "up/m1",
      input: [{ role: "user", content: "x" }, { type: "item_reference", id: "msg_nothing" }],
    }));
    assertEquals(unknown, {
      status: 400,
      error: {
        message: "Item with id 'msg_nothing' not found.",
        type: "invalid_request_error",
        param: "input[1]",
        code: null,
      },
    });
    // Another key cannot reach the items either.
    const foreign = await failure(s.b.responses.create({
      model: "up/m1",
      input: [{ role: "user", content: "x" }, { type: "item_reference", id: ids[1].id }],
    }));
    assertEquals(foreign.status, 400);
  } finally {
    await s.stop();
  }
});

/** Sends one `response.create` over a Responses WebSocket and returns its frames up to the last one. */
async function overSocket(url: string, apiKey: string, request: Record<string, unknown>) {
  const socket = new WebSocket(`${url.replace("http", "ws")}/v1/responses`, {
    headers: { authorization: `Bearer ${apiKey}` },
  } as unknown as string[]);
  const frames: { type: string; [key: string]: unknown }[] = [];
  await new Promise<void>((resolve, reject) => {
    socket.onopen = () => socket.send(JSON.stringify({ type: "response.create", ...request }));
    socket.onerror = () => reject(new Error("WebSocket failed"));
    socket.onmessage = (event) => {
      const frame = JSON.parse(String(event.data));
      frames.push(frame);
      if (/^(response\.completed|response\.failed|error)$/.test(frame.type)) resolve();
    };
  });
  const closed = new Promise((resolve) => (socket.onclose = resolve));
  socket.close();
  await closed;
  return frames;
}

Deno.test("a WebSocket's previous_response_id resolves a response stored over HTTP, and HTTP resolves the socket's", async () => {
  const s = await setup();
  try {
    s.upstream.script(
      chatAnswer({ content: "Noted." }),
      chatAnswer({ content: "Blue." }),
      chatAnswer({ content: "Yes." }),
    );
    const http = await s.a.responses.create({ model: "up/m1", input: "My colour is blue." });
    const frames = await overSocket(s.gateway.url, KEY_A, {
      model: "up/m1",
      previous_response_id: http.id,
      input: [{ role: "user", content: "What is my colour?" }],
    });
    const completed = frames.at(-1)!;
    assertEquals(completed.type, "response.completed");
    assertEquals(conversation(s.upstream.requests[1].body), [
      "user: My colour is blue.",
      "assistant: Noted.",
      "user: What is my colour?",
    ]);
    // The socket's response is stored too: a plain HTTP request continues from it.
    const socketId = (completed.response as { id: string }).id;
    await s.a.responses.create({ model: "up/m1", previous_response_id: socketId, input: "Sure?" });
    assertEquals(conversation(s.upstream.requests[2].body), [
      "user: My colour is blue.",
      "assistant: Noted.",
      "user: What is my colour?",
      "assistant: Blue.",
      "user: Sure?",
    ]);
    // Another key's socket cannot reach it.
    const foreign = await overSocket(s.gateway.url, KEY_B, {
      model: "up/m1",
      previous_response_id: socketId,
      input: [],
    });
    assertEquals(foreign.at(-1)!.type, "error");
    assertEquals((foreign.at(-1)!.error as { code: string }).code, "previous_response_not_found");
  } finally {
    await s.stop();
  }
});

Deno.test("a key's stored responses are capped in size (oldest dropped first), and other keys keep theirs", async () => {
  const s = await setup();
  try {
    s.gateway.runtime.control.store.settings.set("server_response_store_max_mb", "1");
    s.gateway.runtime.control.reload();
    s.upstream.script(chatAnswer({ content: "ok" }));
    const other = await s.b.responses.create({ model: "up/m1", input: "small" });
    // Three responses of about 400 KB each: the third pushes the key over 1 MB, so the first goes.
    const big = "x".repeat(400_000);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      s.upstream.script(chatAnswer({ content: `ok ${i}` }));
      ids.push((await s.a.responses.create({ model: "up/m1", input: `${i} ${big}` })).id);
    }
    assertEquals((await failure(s.a.responses.retrieve(ids[0]))).status, 404);
    assertEquals((await s.a.responses.retrieve(ids[1])).id, ids[1]);
    assertEquals((await s.a.responses.retrieve(ids[2])).id, ids[2]);
    assertEquals((await s.b.responses.retrieve(other.id)).id, other.id);
  } finally {
    await s.stop();
  }
});

Deno.test("stored bodies are redacted as request logs are: a provider key in the input is not kept", async () => {
  const s = await setup();
  try {
    s.upstream.script(chatAnswer({ content: "noted" }));
    // The provider's own key (a configured secret), pasted into a prompt.
    const created = await s.a.responses.create({ model: "up/m1", input: "my key is upstream-key-up-1 ok" });
    const items = await s.a.responses.inputItems.list(created.id);
    const text = JSON.stringify(items.data);
    assert(!text.includes("upstream-key-up-1"), text);
    assert(text.includes("[redacted]"), text);
  } finally {
    await s.stop();
  }
});

/** A Responses upstream's own answer (its id is the one the client sees: the stream or JSON passes through). */
function responsesAnswer(id: string, text: string): { json: unknown } {
  return {
    json: {
      id,
      object: "response",
      created_at: 1,
      status: "completed",
      model: "m1",
      output: [{
        id: `msg_${id}`,
        type: "message",
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text, annotations: [] }],
      }],
      usage: { input_tokens: 5, output_tokens: 5, total_tokens: 10 },
    },
  };
}

Deno.test("a Responses upstream that stored the previous response gets its id; a fallback account gets the conversation", async () => {
  const responses = await startMockUpstream();
  const chat = await startMockUpstream();
  const gateway = await startTestGateway(
    chatProvidersYaml([
      { id: "r-1", prefix: "up", url: `${responses.url}/v1`, apiType: "responses_native" },
      { id: "c-1", prefix: "up", url: chat.url },
    ], KEYS),
  );
  const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY_A, maxRetries: 0 });
  const inputOf = (body: Record<string, unknown>) => JSON.stringify(body.input);
  try {
    // The client asks the upstream to store too: the same account continues by id, with only the new input.
    responses.script(responsesAnswer("resp_up1", "One."), responsesAnswer("resp_up2", "Two."));
    const first = await client.responses.create({ model: "up/m1", input: "Count.", store: true });
    assertEquals(first.id, "resp_up1");
    const second = await client.responses.create({
      model: "up/m1",
      previous_response_id: first.id,
      input: "Go on.",
      store: true,
    });
    const resumed = responses.requests[1].body;
    assertEquals(resumed.previous_response_id, "resp_up1");
    assert(!inputOf(resumed).includes("Count."), inputOf(resumed));

    // By default the gateway tells the upstream not to store: the next turn sends the whole conversation.
    responses.script(responsesAnswer("resp_up3", "Three."), responsesAnswer("resp_up4", "Four."));
    const unkept = await client.responses.create({ model: "up/m1", input: "Again." });
    await client.responses.create({ model: "up/m1", previous_response_id: unkept.id, input: "More." });
    const whole = responses.requests[3].body;
    assertEquals(whole.previous_response_id, undefined);
    assert(inputOf(whole).includes("Again.") && inputOf(whole).includes("Three."), inputOf(whole));

    // The storing account fails: the fallback account (another format) gets the conversation, resolved here.
    responses.script({ json: { error: { message: "overloaded" } }, status: 503 });
    chat.script(chatAnswer({ content: "Five." }));
    await client.responses.create({ model: "up/m1", previous_response_id: second.id, input: "Last." });
    assertEquals(responses.requests[4].body.previous_response_id, second.id);
    assertEquals(conversation(chat.requests[0].body), [
      "user: Count.",
      "assistant: One.",
      "user: Go on.",
      "assistant: Two.",
      "user: Last.",
    ]);
  } finally {
    await gateway.stop();
    await responses.close();
    await chat.close();
  }
});

Deno.test("a Responses upstream's stream passing through is stored with the upstream's own item ids", async () => {
  const responses = await startMockUpstream();
  const gateway = await startTestGateway(
    chatProvidersYaml(
      [{ id: "r-1", prefix: "up", url: `${responses.url}/v1`, apiType: "responses_native" }],
      KEYS,
    ),
  );
  const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY_A, maxRetries: 0 });
  try {
    const { json } = responsesAnswer("resp_streamed", "Streamed.");
    const done = json as { output: unknown[] };
    const event = (type: string, fields: Record<string, unknown>) =>
      `event: ${type}\ndata: ${JSON.stringify({ type, ...fields })}\n\n`;
    responses.script({
      chunks: [
        event("response.created", { response: { ...done, status: "in_progress", output: [] } }),
        event("response.output_item.added", {
          output_index: 0,
          item: { ...(done.output[0] as object), content: [] },
        }),
        event("response.output_text.delta", {
          output_index: 0,
          item_id: "msg_resp_streamed",
          delta: "Streamed.",
        }),
        event("response.output_item.done", { output_index: 0, item: done.output[0] }),
        event("response.completed", { response: done }),
      ],
      contentType: "text/event-stream",
    });
    let completed: OpenAI.Responses.Response | undefined;
    for await (const e of await client.responses.create({ model: "up/m1", input: "Go.", stream: true })) {
      if (e.type === "response.completed") completed = e.response;
    }
    assertEquals(completed?.id, "resp_streamed");
    const stored = await client.responses.retrieve("resp_streamed");
    assertEquals(stored.output.map((item) => item.id), ["msg_resp_streamed"]);
    // And the item is referable by the upstream's id.
    responses.script(responsesAnswer("resp_next", "Next."));
    await client.responses.create({
      model: "up/m1",
      input: [{ type: "item_reference", id: "msg_resp_streamed" }, { role: "user", content: "More." }],
    });
    assert(JSON.stringify(responses.requests[1].body.input).includes("Streamed."));
  } finally {
    await gateway.stop();
    await responses.close();
  }
});
