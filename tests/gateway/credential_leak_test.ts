import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { post, usageRows } from "../helpers/chat_fixtures.ts";
import { startChatGateway } from "../helpers/chat_gateway.ts";

/** The configured key of startChatGateway's account; the mock upstream repeats it as real upstreams do. */
const PROVIDER_KEY = "upstream-key-acct-a";
/** Shaped like an Anthropic key but configured nowhere. */
const STRAY_KEY = "sk-ant-api03-Zq81mXv0RtY6uB2wLk9pNc4sHd7fJe5g";

type Leaky = Awaited<ReturnType<typeof startChatGateway>>;

/** One account whose upstream answers `status` with a body echoing the key it got and a stray key. */
async function leakyUpstream(status: number): Promise<Leaky> {
  const t = await startChatGateway();
  t.mock.script({
    handler: (request) => {
      const sent = (request.headers.get("authorization") ?? "").replace(/^Bearer /, "");
      const message = `Incorrect API key provided: ${sent}. Also tried ${STRAY_KEY} at ${t.mock.url}/v1`;
      return Response.json({ error: { message, type: "invalid_request_error" } }, { status });
    },
  });
  t.gw.runtime.control.store.settings.set("server_request_logging", "true");
  t.gw.runtime.control.reload();
  return t;
}

/** An anonymous chat request for the account's model. */
function ask(t: Leaky): Promise<Response> {
  return post(`${t.gw.url}/v1/chat/completions`, {
    model: "p/m1",
    messages: [{ role: "user", content: "hi" }],
  });
}

/** Asserts that no secret is in `text` and that the placeholder shows where one was. */
function assertRedacted(text: string, where: string): void {
  assert(!text.includes(PROVIDER_KEY), `${where} holds the provider key: ${text}`);
  assert(!text.includes(STRAY_KEY), `${where} holds the key-shaped string: ${text}`);
  assertStringIncludes(text, "[redacted]", where);
}

Deno.test("an upstream 401 that echoes the key: the 503 an anonymous client gets, the usage row, the request log and the cooldown hold no key", async () => {
  await using t = await leakyUpstream(401);
  const response = await ask(t);
  assertEquals(response.status, 503);
  assertEquals(t.mock.requests[0].headers.get("authorization"), `Bearer ${PROVIDER_KEY}`);
  const body = await response.text();
  assertStringIncludes(body, "All providers exhausted");
  assertRedacted(body, "503 body");
  // Internal addresses are the client's business neither: the upstream's host:port is hidden too.
  assert(!body.includes(new URL(t.mock.url).host), body);

  const [usage] = await usageRows(t.gw);
  assertEquals(usage.status, 401);
  assertRedacted(String(usage.error), "usage.error");
  // Admins keep the provider id and what the upstream said, minus the key.
  assertStringIncludes(String(usage.error), "Incorrect API key provided");

  t.gw.runtime.writer.flush();
  const [log] = t.gw.runtime.control.store.requestLogs.all();
  assertEquals(log.providerId, "acct-a");
  assertRedacted(log.error, "request_logs.error");
  assert(!log.responseBody.includes(PROVIDER_KEY), log.responseBody);

  const [cooldown] = t.gw.runtime.control.store.cooldowns.all();
  assertRedacted(cooldown.reason, "cooldowns.reason");
});

Deno.test("an upstream 400 passed straight through to the client has its echoed key redacted", async () => {
  await using t = await leakyUpstream(400);
  const response = await ask(t);
  assertEquals(response.status, 400);
  const body = await response.text();
  assertRedacted(body, "400 body");
  assertStringIncludes(body, "Incorrect API key provided");
  const [usage] = await usageRows(t.gw);
  assertRedacted(String(usage.error), "usage.error");
});

Deno.test("a key changed on reload is redacted from the next failure (the redactor follows the control plane)", async () => {
  await using t = await leakyUpstream(401);
  const store = t.gw.runtime.control.store;
  const rotated = "rotated-secret-55c0ffee9d21";
  const [provider] = store.providers.list();
  store.providers.upsert({ ...provider, apiKey: rotated }, Date.now());
  t.gw.runtime.control.reload();
  const response = await ask(t);
  const body = await response.text();
  assertEquals(t.mock.requests[0].headers.get("authorization"), `Bearer ${rotated}`);
  assert(!body.includes(rotated), body);
  assertStringIncludes(body, "[redacted]");
});

/** An upstream stream that starts answering, then sends an error event repeating the key it was sent. */
async function leakyStream(): Promise<Leaky> {
  const t = await startChatGateway();
  t.mock.script({
    handler: (request) => {
      const sent = (request.headers.get("authorization") ?? "").replace(/^Bearer /, "");
      const chunk = { id: "c1", object: "chat.completion.chunk", created: 1, model: "m1" };
      const events = [
        { ...chunk, choices: [{ index: 0, delta: { role: "assistant", content: "partial" } }] },
        { error: { message: `key ${sent} and ${STRAY_KEY} over quota`, type: "server_error" } },
      ];
      return new Response(events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join(""), {
        headers: { "content-type": "text/event-stream" },
      });
    },
  });
  return t;
}

Deno.test("an error event inside a started stream reaches the client redacted, passthrough and translated", async () => {
  await using t = await leakyStream();
  const same = await post(`${t.gw.url}/v1/chat/completions`, {
    model: "p/m1",
    stream: true,
    messages: [{ role: "user", content: "hi" }],
  });
  const sameText = await same.text();
  assertStringIncludes(sameText, "partial");
  assertRedacted(sameText, "chat passthrough stream");
  const translated = await post(`${t.gw.url}/v1/messages`, {
    model: "p/m1",
    max_tokens: 16,
    stream: true,
    messages: [{ role: "user", content: "hi" }],
  });
  const translatedText = await translated.text();
  assertStringIncludes(translatedText, "partial");
  assertRedacted(translatedText, "messages stream translated from chat");
});
