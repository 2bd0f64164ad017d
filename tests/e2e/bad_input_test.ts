/**
 * Bad input on every client surface, sent with raw fetch: each gets a clear error in that surface's own
 * error shape, never a stack trace and never an empty 200.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { PNG_1X1 } from "../fixtures/neutral_scenarios.ts";
import { type E2E, startE2E, textAnswer } from "./harness.ts";

type Shape = "openai" | "messages" | "generate" | "local_runner";

/** One client surface: where it is served and how its bodies look. */
interface Surface {
  readonly name: string;
  readonly path: string;
  readonly shape: Shape;
  /** A valid body around the given user content (in this surface's own part syntax). */
  readonly body: (content: unknown) => Record<string, unknown>;
  /** A plain user content saying "hi". */
  readonly hello: unknown;
  /** A user content carrying one image of base64 `data`. */
  readonly image: (data: string) => unknown;
  /** A content part of a type this surface does not know. */
  readonly unknownPart: unknown;
  /** A conversation whose tool result answers a call id no assistant turn made. */
  readonly orphanToolResult: Record<string, unknown>;
}

const MODEL = "up_messages/text";
const SURFACES: readonly Surface[] = [
  {
    name: "chat completions",
    path: "/v1/chat/completions",
    shape: "openai",
    body: (content) => ({ model: MODEL, messages: [{ role: "user", content }] }),
    hello: "hi",
    image: (data) => [{ type: "image_url", image_url: { url: `data:image/png;base64,${data}` } }],
    unknownPart: [{ type: "hologram", hologram: { depth: 3 } }],
    orphanToolResult: {
      model: MODEL,
      messages: [
        { role: "user", content: "Weather in Paris?" },
        { role: "tool", tool_call_id: "call_unknown_9", content: "18C sunny" },
      ],
    },
  },
  {
    name: "responses",
    path: "/v1/responses",
    shape: "openai",
    body: (content) => ({ model: MODEL, input: [{ role: "user", content }] }),
    hello: "hi",
    image: (data) => [{ type: "input_image", image_url: `data:image/png;base64,${data}` }],
    unknownPart: [{ type: "input_hologram", hologram: { depth: 3 } }],
    orphanToolResult: {
      model: MODEL,
      input: [
        { role: "user", content: "Weather in Paris?" },
        { type: "function_call_output", call_id: "call_unknown_9", output: "18C sunny" },
      ],
    },
  },
  {
    name: "messages",
    path: "/v1/messages",
    shape: "messages",
    body: (content) => ({ model: MODEL, max_tokens: 64, messages: [{ role: "user", content }] }),
    hello: "hi",
    image: (data) => [{ type: "image", source: { type: "base64", media_type: "image/png", data } }],
    unknownPart: [{ type: "hologram", hologram: { depth: 3 } }],
    orphanToolResult: {
      model: MODEL,
      max_tokens: 64,
      messages: [
        { role: "user", content: "Weather in Paris?" },
        { role: "assistant", content: "Let me look." },
        {
          role: "user",
          content: [{ type: "tool_result", tool_use_id: "toolu_unknown_9", content: "18C sunny" }],
        },
      ],
    },
  },
  {
    name: "generate content",
    path: `/v1beta/models/${MODEL}:generateContent`,
    shape: "generate",
    body: (parts) => ({ contents: [{ role: "user", parts }] }),
    hello: [{ text: "hi" }],
    image: (data) => [{ inlineData: { mimeType: "image/png", data } }],
    unknownPart: [{ hologram: { depth: 3 } }],
    orphanToolResult: {
      contents: [
        { role: "user", parts: [{ text: "Weather in Paris?" }] },
        {
          role: "user",
          parts: [{
            functionResponse: { id: "call_unknown_9", name: "get_weather", response: { r: "18C" } },
          }],
        },
      ],
    },
  },
  {
    name: "local runner",
    path: "/api/chat",
    shape: "local_runner",
    // Local-runner messages carry text in `content` and images beside it, so `content` here is the message.
    body: (message) => ({
      model: MODEL,
      stream: false,
      messages: [{ role: "user", ...(message as object) }],
    }),
    hello: { content: "hi" },
    image: (data) => ({ content: "What is this?", images: [data] }),
    unknownPart: { content: [{ type: "hologram", hologram: { depth: 3 } }] },
    orphanToolResult: {
      model: MODEL,
      stream: false,
      messages: [
        { role: "user", content: "Weather in Paris?" },
        { role: "tool", content: "18C sunny", tool_name: "get_weather" },
      ],
    },
  },
];

async function setup(): Promise<E2E> {
  return await startE2E({ text: textAnswer("Hello from the gateway."), reject: { status: 400 } });
}

async function send(
  e: E2E,
  path: string,
  body: BodyInit,
  headers: Record<string, string> = {},
): Promise<{ status: number; contentType: string | null; text: string }> {
  const response = await fetch(`${e.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "anthropic-version": "2023-06-01", ...headers },
    body,
    signal: AbortSignal.timeout(30_000),
  });
  return {
    status: response.status,
    contentType: response.headers.get("content-type"),
    text: await response.text(),
  };
}

/** Checks status, content type, the surface's error envelope and the absence of internals; returns the message. */
function assertSurfaceError(
  shape: Shape,
  got: { status: number; contentType: string | null; text: string },
  status: number,
): string {
  assertEquals(got.status, status, got.text.slice(0, 300));
  assertMatch(got.contentType ?? "", /^application\/json/);
  assert(!/\n\s+at \S+/.test(got.text), `no stack trace: ${got.text.slice(0, 300)}`);
  const body = JSON.parse(got.text);
  let message: unknown;
  switch (shape) {
    case "openai":
      assertEquals(Object.keys(body), ["error"]);
      assertEquals(typeof body.error.type, "string");
      message = body.error.message;
      break;
    case "messages":
      assertEquals(body.type, "error");
      assertEquals(typeof body.error.type, "string");
      message = body.error.message;
      break;
    case "generate":
      assertEquals(body.error.code, status);
      assertMatch(body.error.status, /^[A-Z_]+$/);
      message = body.error.message;
      break;
    case "local_runner":
      assertEquals(Object.keys(body), ["error"]);
      message = body.error;
      break;
  }
  assert(typeof message === "string" && message.length > 0, "a non-empty message");
  return message;
}

Deno.test("bad input: malformed JSON gets a 400 naming the JSON problem on every surface", async (t) => {
  await using e = await setup();
  const surfaces = [
    ...SURFACES.map((s) => [s.path, s.shape] as const),
    ["/api/generate", "local_runner"] as const,
    ["/v1/messages/count_tokens", "messages"] as const,
  ];
  for (const [path, shape] of surfaces) {
    await t.step(path, async () => {
      const message = assertSurfaceError(
        shape,
        await send(e, path, '{"model": "up_chat/text", "messages": ['),
        400,
      );
      assertMatch(message, /JSON/);
      const empty = assertSurfaceError(shape, await send(e, path, ""), 400);
      assertMatch(empty, /empty/i);
    });
  }
  assertEquals(e.requests.length, 0, "nothing reached an upstream");
});

Deno.test("bad input: an unknown content part type gets a 400 that says where and what", async (t) => {
  await using e = await setup();
  for (const surface of SURFACES) {
    await t.step(surface.name, async () => {
      const got = await send(e, surface.path, JSON.stringify(surface.body(surface.unknownPart)));
      const message = assertSurfaceError(surface.shape, got, 400);
      // Each surface names the offending field path (`messages[0].content…`, `contents[0].parts[0]`…).
      assertMatch(message, /(messages|input|contents)\[0\]/);
    });
  }
  assertEquals(e.requests.length, 0, "nothing reached an upstream");
});

Deno.test({
  name: "bad input: a tool result for an unknown call id gets a 400 naming the id, before any upstream call",
  async fn(t) {
    await using e = await setup();
    for (const surface of SURFACES) {
      await t.step(surface.name, async () => {
        const got = await send(e, surface.path, JSON.stringify(surface.orphanToolResult));
        const message = assertSurfaceError(surface.shape, got, 400);
        if (surface.shape !== "local_runner") assertMatch(message, /unknown_9/);
      });
    }
    assertEquals(e.requests.length, 0, "nothing reached an upstream");
  },
});

Deno.test("bad input: a body over 32 MiB (one huge image) gets a 413 on every surface", async (t) => {
  await using e = await setup();
  const huge = "A".repeat(33 * 1024 * 1024);
  for (const surface of SURFACES) {
    await t.step(surface.name, async () => {
      const got = await send(e, surface.path, JSON.stringify(surface.body(surface.image(huge))));
      const message = assertSurfaceError(surface.shape, got, 413);
      assertMatch(message, /32 MiB/);
    });
  }
  await t.step("chunked body without content-length", async () => {
    const chunk = new TextEncoder().encode("A".repeat(1024 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(new TextEncoder().encode('{"model":"x","messages":[],"pad":"'));
        if (sent++ < 34) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const got = await send(e, "/v1/messages", body);
    assertSurfaceError("messages", got, 413);
  });
  assertEquals(e.requests.length, 0, "nothing reached an upstream");
});

Deno.test("bad input: a small image is accepted and reaches the upstream (the size cap is the only limit)", async (t) => {
  await using e = await setup();
  for (const surface of SURFACES) {
    await t.step(surface.name, async () => {
      const got = await send(e, surface.path, JSON.stringify(surface.body(surface.image(PNG_1X1))));
      assertEquals(got.status, 200, got.text.slice(0, 300));
      assert(got.text.includes("Hello from the gateway."), got.text.slice(0, 300));
      assert(JSON.stringify(e.requests.at(-1)?.body).includes(PNG_1X1), "image bytes forwarded");
    });
  }
});

Deno.test("bad input: an upstream refusal and an unroutable model come back in the surface's shape", async (t) => {
  await using e = await setup();
  for (const surface of SURFACES) {
    await t.step(surface.name, async () => {
      const refusedPath = surface.path.replace(MODEL, "up_chat/reject");
      const refused = surface.body(surface.hello);
      if ("model" in refused) refused.model = "up_chat/reject";
      const refusal = assertSurfaceError(
        surface.shape,
        await send(e, refusedPath, JSON.stringify(refused)),
        400,
      );
      assertMatch(refusal, /upstream exploded/);

      const lostPath = surface.path.replace(MODEL, "nowhere/m");
      const lost = { ...refused };
      if ("model" in lost) lost.model = "nowhere/m";
      const unroutable = assertSurfaceError(
        surface.shape,
        await send(e, lostPath, JSON.stringify(lost)),
        404,
      );
      assertMatch(unroutable, /nowhere/);
    });
  }
});
