/**
 * An upstream error that reaches the client keeps its structure in the client's own format: the upstream's
 * sentence as the message (and its type, code and param where the envelope has them), never its JSON
 * escaped inside a string.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { post } from "../helpers/chat_fixtures.ts";
import { startChatGateway } from "../helpers/chat_gateway.ts";

const UPSTREAM_ERROR = {
  error: {
    message: "This model's maximum context length is 8192 tokens",
    type: "invalid_request_error",
    param: "messages",
    code: "context_length_exceeded",
  },
};

Deno.test("an upstream 400 reaches chat, messages and responses clients as the upstream's own error", async () => {
  await using t = await startChatGateway();
  t.mock.script({ json: UPSTREAM_ERROR, status: 400 });
  const chat = await post(`${t.gw.url}/v1/chat/completions`, {
    model: "p/m1",
    messages: [{ role: "user", content: "hi" }],
  });
  assertEquals(chat.status, 400);
  assertEquals(await chat.json(), { error: UPSTREAM_ERROR.error });

  const messages = await post(`${t.gw.url}/v1/messages`, {
    model: "p/m1",
    max_tokens: 16,
    messages: [{ role: "user", content: "hi" }],
  });
  assertEquals(messages.status, 400);
  const anthropic = await messages.json();
  assertEquals(anthropic.type, "error");
  assertEquals(anthropic.error.message, UPSTREAM_ERROR.error.message);

  const responses = await post(`${t.gw.url}/v1/responses`, { model: "p/m1", input: "hi" });
  assertEquals(responses.status, 400);
  const openai = await responses.json();
  assertEquals(openai.error.message, UPSTREAM_ERROR.error.message);
  assertEquals(openai.error.code, "context_length_exceeded");

  for (const body of [anthropic, openai]) {
    assert(!JSON.stringify(body).includes('\\"error\\"'), JSON.stringify(body));
  }
});
