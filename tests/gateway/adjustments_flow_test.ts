import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { chatCompletion, post } from "../helpers/chat_fixtures.ts";
import { startTestGateway } from "../helpers/gateway.ts";
import { startMockUpstream } from "../helpers/mock_upstream.ts";

const IMAGE = {
  model: "p/m1",
  messages: [{
    role: "user",
    content: [
      { type: "text", text: "what is this?" },
      { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
    ],
  }],
};

Deno.test("a capability override in config (vision: false) strips images for that model only", async () => {
  const mock = await startMockUpstream();
  mock.script({ json: chatCompletion("ok") });
  const gw = await startTestGateway(`providers:
  - id: a
    prefix: p
    api_type: chat_compat
    base_url: ${mock.url}/v1
    models: [m1, m2]
    capabilities:
      m1: {vision: false}
`);
  try {
    await (await post(`${gw.url}/v1/chat/completions`, IMAGE)).body?.cancel();
    const stripped = JSON.stringify(mock.requests[0].body.messages);
    assert(!stripped.includes("image_url"), stripped);
    assertStringIncludes(stripped, "image omitted");
    await (await post(`${gw.url}/v1/chat/completions`, { ...IMAGE, model: "p/m2" })).body?.cancel();
    assertStringIncludes(JSON.stringify(mock.requests[1].body.messages), "image_url");
  } finally {
    await gw.stop();
    await mock.close();
  }
});

Deno.test("clients that double the /v1 prefix still reach the right route", async () => {
  const mock = await startMockUpstream();
  mock.script({ json: chatCompletion("doubled") });
  const gw = await startTestGateway(`providers:
  - id: a
    prefix: p
    api_type: chat_compat
    base_url: ${mock.url}/v1
    models: [m1]
`);
  try {
    const response = await post(`${gw.url}/v1/v1/chat/completions`, {
      model: "p/m1",
      messages: [{ role: "user", content: "x" }],
    });
    assertEquals((await response.json()).choices[0].message.content, "doubled");
    const models = await (await fetch(`${gw.url}/v1/v1/models`)).json();
    assertEquals(models.data[0].id, "p/m1");
  } finally {
    await gw.stop();
    await mock.close();
  }
});
