import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { startE2E, textAnswer, toolAnswer } from "./harness.ts";
import { startTestGateway } from "../helpers/gateway.ts";
import { MAX_JSON_DEPTH, MAX_JSON_VALUES } from "../../src/wire/mod.ts";
import { forwardFrames, SOCKET_UNSENT_BYTES } from "../../src/http/responses_socket.ts";
import { MAX_BODY_BYTES } from "../../src/http/read_body.ts";
import { waitFor } from "../helpers/wait.ts";

type Frame = Record<string, unknown> & { type: string };

/** A WebSocket client that collects frames and waits for the one that ends a response. */
async function connect(url: string) {
  const socket = new WebSocket(`${url.replace("http", "ws")}/v1/responses`);
  const frames: Frame[] = [];
  let wake: () => void = () => {};
  socket.onmessage = (event) => {
    frames.push(JSON.parse(String(event.data)));
    wake();
  };
  await new Promise<void>((resolve, reject) => {
    socket.onopen = () => resolve();
    socket.onerror = () => reject(new Error("WebSocket did not open"));
  });
  return {
    frames,
    /** Sends one message (or several) and returns the frames up to response.completed / response.failed / error. */
    async request(message: unknown): Promise<Frame[]> {
      const from = frames.length;
      for (const one of Array.isArray(message) ? message : [message]) socket.send(JSON.stringify(one));
      const done = () =>
        frames.slice(from).some((f) => /^(response\.completed|response\.failed|error)$/.test(f.type));
      while (!done()) await new Promise<void>((resolve) => (wake = resolve));
      return frames.slice(from);
    },
    async [Symbol.asyncDispose]() {
      if (socket.readyState === WebSocket.OPEN) {
        const closed = new Promise((resolve) => (socket.onclose = resolve));
        socket.close();
        await closed;
      }
    },
  };
}

Deno.test("GET /v1/responses upgrades to a WebSocket that carries the same events as the SSE stream, one request per message", async () => {
  await using e2e = await startE2E({
    agent: (request, turn) =>
      turn === 0 ? toolAnswer([["exec_command", '{"cmd":"ls"}', "call_ls_1"]]) : textAnswer(
        JSON.stringify(request.body).includes("README.md") ? "saw the listing" : "no listing",
      ),
  });
  await using ws = await connect(e2e.url);
  const first = await ws.request({ type: "response.create", model: "up_chat/agent", input: "list files" });
  assertEquals(first[0].type, "response.created");
  const completed = first.at(-1)!;
  assertEquals(completed.type, "response.completed");
  const response = completed.response as { id: string; model: string; output: { type: string }[] };
  assertEquals(response.model, "up_chat/agent");
  assertEquals(response.output[0].type, "function_call");

  // Codex sends only the new items and chains them to the last response on the connection.
  const second = await ws.request({
    type: "response.create",
    model: "up_chat/agent",
    previous_response_id: response.id,
    input: [{ type: "function_call_output", call_id: "call_ls_1", output: "README.md\nsrc/" }],
  });
  const text = second.filter((f) => f.type === "response.output_text.delta").map((f) => f.delta).join("");
  assertEquals(text, "saw the listing");
  const upstream = JSON.stringify(e2e.requests.at(-1)!.body);
  assertStringIncludes(upstream, "list files");
  assertStringIncludes(upstream, "call_ls_1");
});

Deno.test("the Responses WebSocket answers warm-ups without an upstream call and reports bad messages as error frames", async () => {
  await using e2e = await startE2E({ agent: textAnswer("hi"), broken: { status: 400 } });
  await using ws = await connect(e2e.url);
  const warm = await ws.request({
    type: "response.create",
    model: "up_chat/agent",
    input: "hi",
    generate: false,
  });
  assertEquals(warm.map((f) => f.type), ["response.created", "response.completed"]);
  assertEquals(e2e.requests.length, 0);
  const chained = await ws.request({
    type: "response.create",
    model: "up_chat/agent",
    previous_response_id: (warm[1].response as { id: string }).id,
    input: [{ role: "user", content: "and now?" }],
  });
  assertEquals(chained.at(-1)!.type, "response.completed");
  // An acknowledgement gets no answer: the next request's frames are its own.
  const acknowledged = await ws.request([
    { type: "response.processed", response_id: (chained.at(-1)!.response as { id: string }).id },
    { type: "response.create", model: "up_chat/agent", input: "again" },
  ]);
  assertEquals(acknowledged[0].type, "response.created");
  const bad = await ws.request({ type: "session.update" });
  assertEquals(bad[0].type, "error");
  assertEquals(bad[0].status, 400);
  const unknown = await ws.request({
    type: "response.create",
    model: "up_chat/agent",
    previous_response_id: "resp_x",
    input: [],
  });
  assertEquals((unknown[0].error as { code: string }).code, "previous_response_not_found");
  const failed = await ws.request({ type: "response.create", model: "up_chat/broken", input: "x" });
  assertEquals(failed.at(-1)!.type, "error");
  assert(typeof failed.at(-1)!.status === "number");
  // The nesting and value caps of an HTTP body hold for a message too, before any upstream is asked.
  const asked = e2e.requests.length;
  let deep: unknown = "x";
  for (let i = 0; i < MAX_JSON_DEPTH + 1; i++) deep = [deep];
  const tooDeep = await ws.request({ type: "response.create", model: "up_chat/agent", input: deep });
  assertEquals(tooDeep.map((f) => [f.type, f.status]), [["error", 400]]);
  assertStringIncludes(
    (tooDeep[0].error as { message: string }).message,
    `WebSocket message: JSON is nested deeper than ${MAX_JSON_DEPTH} levels`,
  );
  const tooMany = await ws.request({
    type: "response.create",
    model: "up_chat/agent",
    input: Array.from({ length: MAX_JSON_VALUES }, () => 0),
  });
  assertStringIncludes(
    (tooMany[0].error as { message: string }).message,
    `WebSocket message: JSON holds more than ${MAX_JSON_VALUES} values`,
  );
  // Past the HTTP body limit, a message is refused before it is parsed, as a 413.
  const huge = await ws.request({
    type: "response.create",
    model: "up_chat/agent",
    input: "a".repeat(MAX_BODY_BYTES),
  });
  assertEquals(huge.map((f) => [f.type, f.status]), [["error", 413]]);
  assertEquals((huge[0].error as { message: string }).message, "WebSocket message is larger than 32 MiB");
  assertEquals(e2e.requests.length, asked);
});

Deno.test("the Responses WebSocket refuses a web page of another site and takes one of its own", async () => {
  const gw = await startTestGateway("server:\n  require_api_key: false\n");
  try {
    const upgrade = { upgrade: "websocket", connection: "upgrade", "sec-websocket-version": "13" };
    const key = { "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==" };
    const foreign = await fetch(`${gw.url}/v1/responses`, {
      headers: { ...upgrade, ...key, origin: "https://evil.example" },
    });
    assertEquals(foreign.status, 403);
    assertEquals((await foreign.json()).error.type, "permission_error");
    const own = await fetch(`${gw.url}/v1/responses`, { headers: { ...upgrade, ...key, origin: gw.url } });
    assert(own.status !== 403, `own origin refused with ${own.status}`);
    await own.body?.cancel();
  } finally {
    await gw.stop();
  }
});

Deno.test("the Responses WebSocket checks the API key before upgrading", async () => {
  const gw = await startTestGateway("server:\n  require_api_key: true\n");
  try {
    const res = await fetch(`${gw.url}/v1/responses`, {
      headers: {
        upgrade: "websocket",
        connection: "upgrade",
        "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
        "sec-websocket-version": "13",
      },
    });
    assertEquals(res.status, 401);
    await res.body?.cancel();
  } finally {
    await gw.stop();
  }
});

Deno.test("the Responses WebSocket tells what translation lost in a response.gateway_warnings message ahead of the events", async () => {
  await using e2e = await startE2E({ agent: textAnswer("hi") });
  await using ws = await connect(e2e.url);
  // Responses-only fields a generate-content upstream has no place for: over HTTP, x-gateway-warnings.
  const lossy = await ws.request({
    type: "response.create",
    model: "up_generate/agent",
    input: "hello",
    store: false,
    text: { format: { type: "text" } },
  });
  assertEquals(lossy[0].type, "response.gateway_warnings");
  assertEquals(lossy[0].codes, "dropped_field:store,dropped_field:text");
  const warnings = lossy[0].warnings as { code: string; message: string }[];
  assertEquals(warnings.map((w) => w.code), ["dropped_field:store", "dropped_field:text"]);
  assertStringIncludes(warnings[0].message, "store");
  assertEquals(lossy[1].type, "response.created");
  assertEquals(lossy.at(-1)!.type, "response.completed");

  // Nothing lost, no warnings message: the stream starts with response.created.
  const plain = await ws.request({ type: "response.create", model: "up_generate/agent", input: "hello" });
  assertEquals(plain.map((f) => f.type).filter((t) => t === "response.gateway_warnings"), []);
  assertEquals(plain[0].type, "response.created");
});

Deno.test("a socket that holds more than SOCKET_UNSENT_BYTES unsent gets no more frames read for it until it drains", async () => {
  const frame = { data: "x".repeat(300 * 1024) };
  let unsent = 0;
  let polls = 0;
  let clientReads = false;
  const socket = {
    readyState: WebSocket.OPEN,
    send(data: string) {
      unsent += data.length;
    },
    get bufferedAmount() {
      polls++;
      if (clientReads) unsent = 0;
      return unsent;
    },
  };
  let reads = 0;
  const source = {
    next: () => Promise.resolve(++reads <= 10 ? [frame] : null),
    cancel() {},
  };
  const forwarding = forwardFrames(socket, source, new AbortController().signal);
  // Four batches put 1.2 MiB in the socket's backlog; it is looked at again and again, and no fifth is read.
  await waitFor(() => polls >= 6, { what: "the socket's backlog to be looked at again" });
  // 4 × 300 KiB is the first backlog over SOCKET_UNSENT_BYTES (1 MiB).
  assertEquals(SOCKET_UNSENT_BYTES, 1024 * 1024);
  assertEquals(reads, 4);
  clientReads = true;
  assertEquals(await forwarding, null);
  assertEquals(reads, 11);
});
