/**
 * Azure OpenAI providers through a running gateway, driven by the real `openai` SDK: the v1 API and a dated
 * API version (per-deployment paths with `?api-version=`), the Responses API, embeddings, stream and not.
 * The Azure mock answers only what Azure would: the key in `api-key` (never a bearer token), and the path
 * and query of the shape the provider's API version calls for.
 */
import OpenAI from "openai";
import { assert, assertEquals, assertRejects, assertStringIncludes } from "../helpers/assert.ts";
import { startFormatUpstream } from "../helpers/format_upstream.ts";
import { type RecordedRequest, startMockUpstream } from "../helpers/mock_upstream.ts";
import { startTestGateway } from "../helpers/gateway.ts";
import { textAnswer } from "./harness.ts";

const AZURE_KEY = "azure-resource-key-0123456789";

/** Providers of one Azure resource at `endpoint`: v1 (endpoint pasted with /openai/v1), dated, Responses. */
function azureYaml(endpoint: string): string {
  return "providers:\n" +
    `  - id: az-v1\n    prefix: azv\n    api_type: azure_openai\n    base_url: ${endpoint}/openai/v1\n` +
    `    api_key: ${AZURE_KEY}\n    models: [gpt-4o, gpt-4o-mini]\n` +
    "    azure:\n      deployments:\n        gpt-4o: prod-gpt4o\n" +
    `  - id: az-dated\n    prefix: azd\n    api_type: azure_openai\n    base_url: ${endpoint}\n` +
    `    api_key: ${AZURE_KEY}\n    models: [gpt-4o, text-embedding-3-small]\n` +
    "    azure:\n      api_version: 2024-10-21\n      deployments:\n        gpt-4o: dated-gpt4o\n" +
    `  - id: az-resp\n    prefix: azr\n    api_type: azure_responses\n    base_url: ${endpoint}\n` +
    `    api_key: ${AZURE_KEY}\n    models: [gpt-4.1]\n` +
    "    azure:\n      api_version: 2025-04-01-preview\n      deployments:\n        gpt-4.1: resp-gpt41\n";
}

/** Asserts the request authenticated the Azure way: the key in `api-key`, no Authorization header. */
function assertAzureAuth(request: RecordedRequest): void {
  assertEquals(request.headers.get("api-key"), AZURE_KEY);
  assertEquals(request.headers.get("authorization"), null);
}

async function setup() {
  // Every deployment answers the same text; the scenario the mock sees is the body's model (the deployment).
  const upstream = await startFormatUpstream(() => ({
    kind: "answer",
    response: textAnswer("Hello from Azure."),
  }));
  const gw = await startTestGateway(azureYaml(upstream.url));
  const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: "anything", maxRetries: 0 });
  return {
    upstream,
    client,
    last: () => upstream.requests.at(-1)!,
    async [Symbol.asyncDispose]() {
      await gw.stop();
      await upstream.close();
    },
  };
}

Deno.test("Azure v1 API: chat completions go to /openai/v1/chat/completions with the deployment as the model and an api-key header", async () => {
  await using e = await setup();
  const answer = await e.client.chat.completions.create({
    model: "azv/gpt-4o",
    messages: [{ role: "user", content: "hi" }],
  });
  assertEquals(answer.choices[0].message.content, "Hello from Azure.");
  assertEquals(answer.model, "azv/gpt-4o");
  const sent = e.last();
  assertEquals(sent.path, "/openai/v1/chat/completions");
  assertEquals(sent.search, "");
  assertEquals(sent.body.model, "prod-gpt4o");
  assertAzureAuth(sent);

  // A model with no deployment entry is its own deployment.
  await e.client.chat.completions.create({
    model: "azv/gpt-4o-mini",
    messages: [{ role: "user", content: "hi" }],
  });
  assertEquals(e.last().body.model, "gpt-4o-mini");
});

Deno.test("Azure dated API version: chat completions stream from /openai/deployments/{deployment}/chat/completions?api-version=", async () => {
  await using e = await setup();
  const stream = await e.client.chat.completions.create({
    model: "azd/gpt-4o",
    stream: true,
    stream_options: { include_usage: true },
    messages: [{ role: "user", content: "hi" }],
  });
  let text = "";
  let finish: string | null = null;
  for await (const chunk of stream) {
    text += chunk.choices[0]?.delta.content ?? "";
    finish = chunk.choices[0]?.finish_reason ?? finish;
  }
  assertEquals(text, "Hello from Azure.");
  assertEquals(finish, "stop");
  const sent = e.last();
  assertEquals(sent.path, "/openai/deployments/dated-gpt4o/chat/completions");
  assertEquals(new URLSearchParams(sent.search).get("api-version"), "2024-10-21");
  assertEquals(sent.body.stream, true);
  assertAzureAuth(sent);
});

Deno.test("Azure Responses API: responses.create, stream and not, at /openai/responses?api-version= with the deployment in the body", async () => {
  await using e = await setup();
  const answer = await e.client.responses.create({ model: "azr/gpt-4.1", input: "hi" });
  assertEquals(answer.output_text, "Hello from Azure.");
  let sent = e.last();
  assertEquals(sent.path, "/openai/responses");
  assertEquals(new URLSearchParams(sent.search).get("api-version"), "2025-04-01-preview");
  assertEquals(sent.body.model, "resp-gpt41");
  assertAzureAuth(sent);

  const stream = await e.client.responses.create({ model: "azr/gpt-4.1", input: "hi", stream: true });
  let text = "";
  let completed = false;
  for await (const event of stream) {
    if (event.type === "response.output_text.delta") text += event.delta;
    if (event.type === "response.completed") completed = true;
  }
  assertEquals(text, "Hello from Azure.");
  assert(completed, "the stream ends with response.completed");
  sent = e.last();
  assertEquals(sent.path, "/openai/responses");
  assertEquals(sent.body.stream, true);
  assertAzureAuth(sent);
});

Deno.test("Azure: a chat-completions client routed to the Responses kind, and a Responses client to the chat kind, both translate", async () => {
  await using e = await setup();
  const chat = await e.client.chat.completions.create({
    model: "azr/gpt-4.1",
    messages: [{ role: "user", content: "hi" }],
  });
  assertEquals(chat.choices[0].message.content, "Hello from Azure.");
  assertEquals(e.last().path, "/openai/responses");
  const responses = await e.client.responses.create({ model: "azd/gpt-4o", input: "hi" });
  assertEquals(responses.output_text, "Hello from Azure.");
  assertEquals(e.last().path, "/openai/deployments/dated-gpt4o/chat/completions");
});

Deno.test("Azure embeddings: /openai/deployments/{deployment}/embeddings?api-version= with the api-key header", async () => {
  const upstream = await startMockUpstream();
  upstream.script({
    handler: (request) =>
      request.path.endsWith("/embeddings") && request.headers.get("api-key") === AZURE_KEY
        ? Response.json({
          object: "list",
          model: "text-embedding-3-small",
          data: [{ object: "embedding", index: 0, embedding: [0.5, -0.25, 1] }],
          usage: { prompt_tokens: 3, total_tokens: 3 },
        })
        : Response.json({ error: { code: "404", message: "Resource not found" } }, { status: 404 }),
  });
  const gw = await startTestGateway(azureYaml(upstream.url));
  try {
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: "anything", maxRetries: 0 });
    const answer = await client.embeddings.create({
      model: "azd/text-embedding-3-small",
      input: "hello",
      encoding_format: "float",
    });
    assertEquals(answer.data[0].embedding, [0.5, -0.25, 1]);
    const sent = upstream.requests.at(-1)!;
    assertEquals(sent.path, "/openai/deployments/text-embedding-3-small/embeddings");
    assertEquals(new URLSearchParams(sent.search).get("api-version"), "2024-10-21");
    assertAzureAuth(sent);
  } finally {
    await gw.stop();
    await upstream.close();
  }
});

Deno.test("Azure: a bad azure section in the YAML is refused at load with the field and the rule", async () => {
  const error = await assertRejects(() =>
    startTestGateway(
      "providers:\n  - id: az\n    prefix: az\n    api_type: azure_openai\n    base_url: http://127.0.0.1:9\n" +
        "    azure:\n      api_version: latest\n",
    )
  );
  assertStringIncludes(error.message, "api_version");
  assertStringIncludes(error.message, "2024-10-21");
});

Deno.test("Azure images: images.generate at the v1 API names the deployment in the body; a dated version puts it in the path", async () => {
  const upstream = await startMockUpstream();
  upstream.script({
    handler: (request) =>
      request.path.endsWith("/images/generations") && request.headers.get("api-key") === AZURE_KEY
        ? Response.json({ created: 1_700_000_000, data: [{ b64_json: "aW1hZ2U=" }] })
        : Response.json({ error: { code: "404", message: "Resource not found" } }, { status: 404 }),
  });
  const yaml = azureYaml(upstream.url).replace(
    "gpt-4o: prod-gpt4o\n",
    "gpt-4o: prod-gpt4o\n        gpt-image-1: images-prod\n",
  );
  const gw = await startTestGateway(yaml);
  try {
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: "anything", maxRetries: 0 });
    const v1 = await client.images.generate({ model: "azv/gpt-image-1", prompt: "an apple" });
    assertEquals(v1.data?.[0].b64_json, "aW1hZ2U=");
    let sent = upstream.requests.at(-1)!;
    assertEquals([sent.path, sent.search, sent.body.model], [
      "/openai/v1/images/generations",
      "",
      "images-prod",
    ]);
    assertAzureAuth(sent);
    await client.images.generate({ model: "azd/gpt-image-1", prompt: "an apple" });
    sent = upstream.requests.at(-1)!;
    assertEquals(sent.path, "/openai/deployments/gpt-image-1/images/generations");
    assertEquals(new URLSearchParams(sent.search).get("api-version"), "2024-10-21");
  } finally {
    await gw.stop();
    await upstream.close();
  }
});
