import { type E2E, startE2E, textAnswer } from "../e2e/harness.ts";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { post } from "../helpers/chat_fixtures.ts";

/** Responses-only fields a generate-content upstream has no place for. */
const RESPONSES_ONLY = { store: false, text: { format: { type: "text" } } };

async function gatewayWithLogs(): Promise<E2E> {
  const e2e = await startE2E({ hello: textAnswer("hi there") });
  const control = e2e.gw.runtime.control;
  control.store.settings.set("server_request_logging", "true");
  control.reload();
  return e2e;
}

function loggedWarnings(e2e: E2E): string[][] {
  e2e.gw.runtime.writer.flush();
  return e2e.gw.runtime.control.store.requestLogs.all().map((row) => row.warnings.map((w) => w.code));
}

const ask = (model: string, extra: Record<string, unknown> = {}) => ({ model, input: "hello", ...extra });

Deno.test("a Responses-only field sent to a generate-content upstream is named in x-gateway-warnings and in the request log", async () => {
  await using e2e = await gatewayWithLogs();
  const response = await post(`${e2e.url}/v1/responses`, ask("up_generate/hello", RESPONSES_ONLY));
  assertEquals(response.status, 200);
  assertEquals(e2e.lastUpstreamFormat(), "generate_content");
  assertEquals(response.headers.get("x-gateway-warnings"), "dropped_field:store,dropped_field:text");
  assertStringIncludes(JSON.stringify(await response.json()), "hi there");
  assertEquals(loggedWarnings(e2e), [["dropped_field:store", "dropped_field:text"]]);
  const [row] = e2e.gw.runtime.control.store.requestLogs.all();
  assertStringIncludes(row.warnings[0].message, "store");
});

Deno.test("a streamed cross-format answer carries x-gateway-warnings; its log row has them once the stream ends", async () => {
  await using e2e = await gatewayWithLogs();
  const response = await post(
    `${e2e.url}/v1/responses`,
    ask("up_generate/hello", { ...RESPONSES_ONLY, stream: true }),
  );
  assertEquals(response.status, 200);
  assertStringIncludes(response.headers.get("content-type") ?? "", "text/event-stream");
  assertEquals(response.headers.get("x-gateway-warnings"), "dropped_field:store,dropped_field:text");
  assertStringIncludes(await response.text(), "hi there");
  assertEquals(loggedWarnings(e2e), [["dropped_field:store", "dropped_field:text"]]);
});

Deno.test("nothing lost, no header: the same fields to a Responses upstream, and a plain cross-format request", async () => {
  await using e2e = await gatewayWithLogs();
  const same = await post(`${e2e.url}/v1/responses`, ask("up_responses/hello", RESPONSES_ONLY));
  assertEquals([same.status, same.headers.has("x-gateway-warnings")], [200, false]);
  await same.body?.cancel();
  const plain = await post(`${e2e.url}/v1/chat/completions`, {
    model: "up_generate/hello",
    messages: [{ role: "user", content: "hello" }],
  });
  assertEquals([plain.status, plain.headers.has("x-gateway-warnings")], [200, false]);
  await plain.body?.cancel();
  assertEquals(loggedWarnings(e2e), [[], []]);
});

Deno.test("an upstream 4xx passed through keeps its own kind in the client's error envelope", async () => {
  await using e2e = await startE2E({
    s400: { status: 400 },
    s404: { status: 404 },
    s413: { status: 413 },
    s422: { status: 422 },
  });
  const kinds: [number, string][] = [
    [400, "invalid_request"],
    [404, "not_found"],
    [413, "payload_too_large"],
    [422, "invalid_request"],
  ];
  for (const [status, kind] of kinds) {
    const response = await post(`${e2e.url}/v1/chat/completions`, {
      model: `up_chat/s${status}`,
      messages: [{ role: "user", content: "hello" }],
    });
    assertEquals(response.status, status);
    const body = await response.json();
    assertEquals(body.error.code, kind, `upstream ${status}`);
    assertStringIncludes(body.error.message, "upstream exploded");
  }
  const messages = await post(`${e2e.url}/v1/messages`, {
    model: "up_chat/s404",
    max_tokens: 10,
    messages: [{ role: "user", content: "hello" }],
  });
  assertEquals(messages.status, 404);
  assertEquals((await messages.json()).error.type, "not_found_error");
  const gemini = await post(`${e2e.url}/v1beta/models/up_chat%2Fs413:generateContent`, {
    contents: [{ role: "user", parts: [{ text: "hello" }] }],
  });
  assertEquals(gemini.status, 413);
  assert((await gemini.text()).includes("upstream exploded"));
});
