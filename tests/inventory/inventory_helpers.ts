import { chatProvidersYaml, startTestGateway, type TestGateway } from "../helpers/gateway.ts";

/** The static key dashboard calls use, and the push token. */
export const ADMIN_KEY = "static-admin-key-1234567890";
export const PUSH_TOKEN = "push-token-inventory-test";

/**
 * An OpenAI-compatible upstream that knows which keys are good: `/v1/models` and `/v1/chat/completions`
 * answer 200 for keys in `good`, 401 for the rest. Records which key every call carried.
 */
export interface KeyAwareUpstream {
  readonly url: string;
  readonly good: Set<string>;
  /** `${path} ${key}` per call, in order. */
  readonly calls: string[];
  chatCallsWith(key: string): number;
  close(): Promise<void>;
}

/** One request to a test upstream, its body already read. */
export interface UpstreamCall {
  readonly request: Request;
  readonly path: string;
  /** The bearer key it carried ("" when none). */
  readonly key: string;
  /** Aborts when the upstream closes, so a request the handler holds can end. */
  readonly closing: AbortSignal;
}

/** A test upstream on a free loopback port. */
export interface TestUpstream {
  readonly url: string;
  close(): Promise<void>;
}

/** Starts an upstream on a free loopback port that answers each request with `handle`. */
export function startUpstream(
  handle: (call: UpstreamCall) => Response | Promise<Response>,
): Promise<TestUpstream> {
  const controller = new AbortController();
  return new Promise((resolve) => {
    const server = Deno.serve({
      hostname: "127.0.0.1",
      port: 0,
      signal: controller.signal,
      onListen: ({ port }) =>
        resolve({
          url: `http://127.0.0.1:${port}`,
          async close() {
            controller.abort();
            await server.finished;
          },
        }),
    }, async (request) => {
      const path = new URL(request.url).pathname;
      const key = (request.headers.get("authorization") ?? "").replace(/^Bearer /, "");
      await request.text();
      return handle({ request, path, key, closing: controller.signal });
    });
  });
}

/** A chat completion of model `m1` answering `content`, by default "hi" on a one-token prompt. */
export function chatAnswer(content = "hi", id = "c1", promptTokens = 1): Response {
  return Response.json({
    id,
    object: "chat.completion",
    created: 0,
    model: "m1",
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
    usage: { prompt_tokens: promptTokens, completion_tokens: 1, total_tokens: promptTokens + 1 },
  });
}

/** Starts a key-aware upstream on a free loopback port. */
export async function startKeyAwareUpstream(good: readonly string[]): Promise<KeyAwareUpstream> {
  const goodKeys = new Set(good);
  const calls: string[] = [];
  const upstream = await startUpstream(({ path, key }) => {
    calls.push(`${path} ${key}`);
    if (!goodKeys.has(key)) {
      return Response.json({
        error: { message: "Incorrect API key provided", type: "invalid_request_error" },
      }, {
        status: 401,
      });
    }
    if (path === "/v1/models") {
      return Response.json({ object: "list", data: [{ id: "m1", object: "model" }] }, {
        headers: { "x-ratelimit-limit-requests": "500", "x-ratelimit-limit-tokens": "200000" },
      });
    }
    return chatAnswer("hello", "chatcmpl-1", 3);
  });
  return {
    ...upstream,
    good: goodKeys,
    calls,
    chatCallsWith: (key) => calls.filter((c) => c === `/v1/chat/completions ${key}`).length,
  };
}

/**
 * YAML for a gateway with provider `acct-a` (prefix `p`, plus any `prefixes` given: keys detected as
 * groq or openrouter are then checked against the mock, never the real host) and checks allowed on loopback.
 */
export function inventoryYaml(url: string, inventory = "", prefixes: readonly string[] = []): string {
  const rows = [
    { id: "acct-a", prefix: "p", url },
    ...prefixes.map((prefix) => ({ id: `row-${prefix}`, prefix, url })),
  ];
  return chatProvidersYaml(rows) +
    `api_keys:\n  - key: ${ADMIN_KEY}\n    client_key_label: admin\n` +
    `inventory:\n  allow_private_targets: true\n  check_provider_keys: true\n  check_interval_hours: 0\n${inventory}`;
}

/** Starts a gateway for inventory tests with the push token set. */
export function startInventoryGateway(yaml: string, dir?: string): Promise<TestGateway> {
  return startTestGateway(yaml, { env: { INVENTORY_PUSH_TOKEN: PUSH_TOKEN }, dir });
}

/** Calls a dashboard API with the admin key. */
export async function dashboard(
  gw: TestGateway,
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${gw.url}${path}`, {
    method: init.method ?? "GET",
    headers: { authorization: `Bearer ${ADMIN_KEY}`, "content-type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : {} };
}

/** Pushes keys with the push token. */
export async function push(
  gw: TestGateway,
  value: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${gw.url}/dashboard/api/inventory/push`, {
    method: "POST",
    headers: { authorization: `Bearer ${PUSH_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify(value),
  });
  return { status: response.status, body: await response.json() };
}

/** One chat request through the gateway; the status. */
export async function chat(gw: TestGateway, model = "p/m1"): Promise<number> {
  const response = await fetch(`${gw.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${ADMIN_KEY}`, "content-type": "application/json" },
    body: JSON.stringify({ model, messages: [{ role: "user", content: "hi" }] }),
  });
  await response.body?.cancel();
  return response.status;
}
