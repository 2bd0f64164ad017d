/**
 * Per-key rate limits as the official SDKs meet them: the rate-limit headers on every answer, a 429 in
 * the client's own format with Retry-After, the SDK's built-in retry succeeding once the bucket refilled,
 * and a streaming request holding its concurrency slot until its last byte.
 */
import OpenAI from "openai";
import Anthropic from "@anthropic-ai/sdk";
import { chatCompletion } from "../helpers/chat_fixtures.ts";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { chatProvidersYaml, startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { type MockUpstream, type RecordedRequest, startMockUpstream } from "../helpers/mock_upstream.ts";
import { waitFor } from "../helpers/wait.ts";
import type { KeyLimits } from "../../src/storage/mod.ts";

const COMPLETION = chatCompletion("hi", { prompt_tokens: 5, completion_tokens: 2 });

function chunk(delta: Record<string, unknown>, finish: string | null = null, usage?: unknown): string {
  const body = { id: "c1", object: "chat.completion.chunk", created: 1, model: "m1", usage };
  return `data: ${JSON.stringify({ ...body, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

/** A gateway with one key under `limits`; streams from the upstream wait for `releaseStream()`. */
interface Limited extends AsyncDisposable {
  readonly gw: TestGateway;
  readonly upstream: MockUpstream;
  readonly key: string;
  releaseStream(): void;
  /** Responses the SDK received (status and headers), in order. */
  readonly seen: { status: number; headers: Headers }[];
  readonly fetch: typeof fetch;
}

async function limitedGateway(limits: Partial<KeyLimits>): Promise<Limited> {
  const upstream = await startMockUpstream();
  let release: () => void = () => {};
  upstream.script({
    handler: (request: RecordedRequest) => {
      if (request.body.stream !== true) return Response.json(COMPLETION);
      const encoder = new TextEncoder();
      const held = new Promise<void>((resolve) => (release = resolve));
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(encoder.encode(chunk({ role: "assistant", content: "Hel" })));
          await held;
          controller.enqueue(encoder.encode(chunk({ content: "lo" })));
          controller.enqueue(
            encoder.encode(chunk({}, "stop", { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 })),
          );
          controller.enqueue(encoder.encode("data: [DONE]\n\n"));
          controller.close();
        },
      });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    },
  });
  const gw = await startTestGateway(chatProvidersYaml([{ id: "up", prefix: "up", url: upstream.url }]));
  const created = gw.management.keys.create({ name: "limited", canLogin: false, allowedModels: [], limits });
  const seen: { status: number; headers: Headers }[] = [];
  const recording: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    seen.push({ status: response.status, headers: response.headers });
    return response;
  };
  return {
    gw,
    upstream,
    key: created.plaintext,
    releaseStream: () => release(),
    seen,
    fetch: recording,
    async [Symbol.asyncDispose]() {
      release();
      await gw.stop();
      await upstream.close();
    },
  };
}

Deno.test("openai SDK: every answer carries x-ratelimit-*; over the RPM limit a 429 with Retry-After, and the SDK's retry succeeds after the refill", async () => {
  await using t = await limitedGateway({ rpm: 60 });
  const noRetry = new OpenAI({ baseURL: `${t.gw.url}/v1`, apiKey: t.key, maxRetries: 0, fetch: t.fetch });
  const ask = (client: OpenAI) =>
    client.chat.completions.create({ model: "up/m1", messages: [{ role: "user", content: "hi" }] });
  // RPM 60: a quiet key may send 60 at once.
  for (let i = 0; i < 60; i++) assertEquals((await ask(noRetry)).choices[0].message.content, "hi");
  const first = t.seen[0].headers;
  assertEquals(first.get("x-ratelimit-limit-requests"), "60");
  assertEquals(first.get("x-ratelimit-remaining-requests"), "59");
  assertMatch(first.get("x-ratelimit-reset-requests") ?? "", /^\d+(\.\d+)?(ms|s)$/);
  const refused = await ask(noRetry).then(() => null, (error: unknown) => error);
  assert(refused instanceof OpenAI.APIError, `expected an APIError, got ${refused}`);
  assertEquals(refused.status, 429);
  assertEquals((refused.error as { type?: string }).type, "rate_limit_error");
  assertMatch(refused.message, /60 requests per minute/);
  const headers = t.seen.at(-1)!.headers;
  assertEquals(headers.get("retry-after"), "1");
  assert(Number(headers.get("retry-after-ms")) > 0 && Number(headers.get("retry-after-ms")) <= 1000);
  assertEquals(headers.get("x-ratelimit-remaining-requests"), "0");
  // The SDK reads retry-after-ms, waits that long and tries again: one request refills in a second.
  const withRetry = new OpenAI({ baseURL: `${t.gw.url}/v1`, apiKey: t.key, maxRetries: 3, fetch: t.fetch });
  const before = t.seen.length;
  assertEquals((await ask(withRetry)).choices[0].message.content, "hi");
  const statuses = t.seen.slice(before).map((r) => r.status);
  assertEquals(statuses.at(-1), 200);
  // Only the 60 admitted requests and the retried one reached the upstream.
  assertEquals(t.upstream.requests.length, 61);
});

Deno.test("anthropic SDK: anthropic-ratelimit-* headers, a rate_limit_error 429 with Retry-After, and a successful built-in retry", async () => {
  await using t = await limitedGateway({ rpm: 60 });
  const noRetry = new Anthropic({ baseURL: t.gw.url, apiKey: t.key, maxRetries: 0, fetch: t.fetch });
  const ask = (client: Anthropic) =>
    client.messages.create({ model: "up/m1", max_tokens: 64, messages: [{ role: "user", content: "hi" }] });
  for (let i = 0; i < 60; i++) assertEquals((await ask(noRetry)).type, "message");
  const first = t.seen[0].headers;
  assertEquals(first.get("anthropic-ratelimit-requests-limit"), "60");
  assertEquals(first.get("anthropic-ratelimit-requests-remaining"), "59");
  assertMatch(first.get("anthropic-ratelimit-requests-reset") ?? "", /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assertEquals(first.get("x-ratelimit-limit-requests"), null);
  const refused = await ask(noRetry).then(() => null, (error: unknown) => error);
  assert(refused instanceof Anthropic.APIError, `expected an APIError, got ${refused}`);
  assertEquals(refused.status, 429);
  assertEquals((refused.error as { error?: { type?: string } }).error?.type, "rate_limit_error");
  assertEquals(t.seen.at(-1)!.headers.get("retry-after"), "1");
  assertEquals(t.seen.at(-1)!.headers.get("anthropic-ratelimit-requests-remaining"), "0");
  const withRetry = new Anthropic({ baseURL: t.gw.url, apiKey: t.key, maxRetries: 3, fetch: t.fetch });
  assertEquals((await ask(withRetry)).type, "message");
  assertEquals(t.seen.at(-1)!.status, 200);
});

Deno.test("a streaming request holds its max-parallel slot until its last byte, and gives it back when the client leaves", async () => {
  await using t = await limitedGateway({ maxParallel: 1 });
  const client = new OpenAI({ baseURL: `${t.gw.url}/v1`, apiKey: t.key, maxRetries: 0 });
  const ask = () =>
    client.chat.completions.create({ model: "up/m1", messages: [{ role: "user", content: "x" }] });
  const stream = await client.chat.completions.create({
    model: "up/m1",
    messages: [{ role: "user", content: "stream" }],
    stream: true,
  });
  const reader = stream[Symbol.asyncIterator]();
  const head = await reader.next();
  assertEquals(head.value?.choices[0].delta.content, "Hel");
  // The stream is open: the key's one slot is taken.
  const refused = await ask().then(() => null, (error: unknown) => error);
  assert(refused instanceof OpenAI.APIError);
  assertEquals(refused.status, 429);
  assertMatch(refused.message, /1 requests at once/);
  t.releaseStream();
  let text = "Hel";
  for (let next = await reader.next(); !next.done; next = await reader.next()) {
    text += next.value.choices[0]?.delta.content ?? "";
  }
  assertEquals(text, "Hello");
  // The last byte was read: the slot is free.
  assertEquals((await ask()).choices[0].message.content, "hi");

  // A client that leaves mid-stream gives the slot back too.
  const controller = new AbortController();
  const left = await client.chat.completions.create(
    { model: "up/m1", messages: [{ role: "user", content: "stream" }], stream: true },
    { signal: controller.signal },
  );
  await left[Symbol.asyncIterator]().next();
  controller.abort();
  await waitFor(async () => {
    const status = await ask().then(() => 200, (error: { status?: number }) => error.status ?? 0);
    return status === 200;
  }, { what: "the slot freed after the client left" });
});
