/**
 * The same bad input gets the same field path and the same wording on all five client surfaces, each in
 * that surface's own error envelope (raw fetch against a gateway on a loopback port).
 */
import { assertEquals, assertRejects } from "../helpers/assert.ts";
import { GatewayError } from "../../src/model/mod.ts";
import { readJsonBody } from "../../src/http/read_body.ts";
import { type E2E, startE2E, textAnswer } from "./harness.ts";

const MODEL = "up_messages/text";

/** One client surface: where it is served, a valid body, and how to read the message out of its envelope. */
interface Surface {
  readonly name: string;
  readonly path: string;
  readonly body: Record<string, unknown>;
  /** The error message, after checking the envelope is this surface's own. */
  readonly message: (status: number, body: Record<string, unknown>) => unknown;
}

function openAiMessage(_status: number, body: Record<string, unknown>): unknown {
  const error = body.error as Record<string, unknown>;
  assertEquals([Object.keys(body), error.type], [["error"], "invalid_request_error"]);
  return error.message;
}

const SURFACES: readonly Surface[] = [
  {
    name: "chat completions",
    path: "/v1/chat/completions",
    body: { model: MODEL, messages: [{ role: "user", content: "hi" }] },
    message: openAiMessage,
  },
  {
    name: "responses",
    path: "/v1/responses",
    body: { model: MODEL, input: [{ role: "user", content: "hi" }] },
    message: openAiMessage,
  },
  {
    name: "messages",
    path: "/v1/messages",
    body: { model: MODEL, max_tokens: 64, messages: [{ role: "user", content: "hi" }] },
    message: (_status, body) => {
      const error = body.error as Record<string, unknown>;
      assertEquals([body.type, error.type], ["error", "invalid_request_error"]);
      return error.message;
    },
  },
  {
    name: "generate content",
    path: `/v1beta/models/${MODEL}:generateContent`,
    // The model is in the URL here, so the body's required field is `contents`.
    body: { contents: [{ role: "user", parts: [{ text: "hi" }] }] },
    message: (status, body) => {
      const error = body.error as Record<string, unknown>;
      assertEquals([error.code, error.status], [status, "INVALID_ARGUMENT"]);
      return error.message;
    },
  },
  {
    name: "local runner",
    path: "/api/chat",
    body: { model: MODEL, stream: false, messages: [{ role: "user", content: "hi" }] },
    message: (_status, body) => {
      assertEquals(Object.keys(body), ["error"]);
      return body.error;
    },
  },
];

/** The field every surface requires in its body: `model`, or `contents` where the URL names the model. */
function requiredField(surface: Surface): string {
  return "model" in surface.body ? "model" : "contents";
}

async function errorMessage(e: E2E, surface: Surface, body: Record<string, unknown>): Promise<unknown> {
  const response = await fetch(`${e.url}${surface.path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "anthropic-version": "2023-06-01" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  assertEquals(response.status, 400, text.slice(0, 300));
  return surface.message(response.status, JSON.parse(text));
}

Deno.test("every surface names a missing required field as `<field>: is required` in its own envelope", async (t) => {
  await using e = await startE2E({ text: textAnswer("unused") });
  for (const surface of SURFACES) {
    await t.step(surface.name, async () => {
      const field = requiredField(surface);
      const { [field]: _dropped, ...body } = surface.body;
      assertEquals(await errorMessage(e, surface, body), `${field}: is required`);
    });
  }
  assertEquals(e.requests.length, 0, "nothing reached an upstream");
});

Deno.test("every surface words a wrongly typed required field the same way (`model: must be a string`)", async (t) => {
  await using e = await startE2E({ text: textAnswer("unused") });
  for (const surface of SURFACES) {
    await t.step(surface.name, async () => {
      const field = requiredField(surface);
      const expected = field === "model" ? "model: must be a string" : "contents: must be an array";
      const body = { ...surface.body, [field]: 42 };
      assertEquals(await errorMessage(e, surface, body), expected);
    });
  }
  assertEquals(e.requests.length, 0, "nothing reached an upstream");
});

Deno.test("every chat-shaped surface names a message without its role at the same path", async (t) => {
  await using e = await startE2E({ text: textAnswer("unused") });
  for (const surface of SURFACES.filter((s) => Array.isArray(s.body.messages))) {
    await t.step(surface.name, async () => {
      const body = { ...surface.body, messages: [{ content: "hi" }] };
      assertEquals(await errorMessage(e, surface, body), "messages[0].role: is required");
    });
  }
});

Deno.test("readJsonBody() reports a client that left mid-body as 499 client_closed, not invalid_request", async () => {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"model": "x", "messages": ['));
    },
    pull(controller) {
      controller.error(new Error("connection reset by peer"));
    },
  });
  const request = new Request("http://127.0.0.1/v1/chat/completions", { method: "POST", body });
  const error = await assertRejects(() => readJsonBody(request), GatewayError);
  assertEquals([error.status, error.kind], [499, "client_closed"]);
});
