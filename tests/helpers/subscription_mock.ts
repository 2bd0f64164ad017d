/**
 * Mock subscription upstreams on loopback: an OAuth token server whose refresh tokens rotate and reject
 * reuse, the Codex backend (always SSE, x-codex-* headers, in-stream overload, 429 usage_limit_reached),
 * the Claude messages API (bearer + oauth beta, unified rate-limit headers), and Copilot (session-token
 * exchange on one host, the chat API on a second host named by the exchange's endpoints.api; the model
 * `limited` answers 429 with Retry-After).
 */
import type { NeutralResponse, WireFormat } from "../../src/model/mod.ts";
import { responseEvents } from "../../src/gateway/dispatch.ts";
import { codecFor } from "../../src/wire/mod.ts";

/** What the token server has seen. */
export interface TokenLedger {
  refreshes: number;
  /** Refresh tokens presented a second time (must stay 0). */
  reuses: number;
  /** Access tokens the upstreams accept. */
  readonly validAccess: Set<string>;
  readonly validRefresh: Set<string>;
  readonly spent: Set<string>;
  /** Bodies the token endpoint received. */
  readonly bodies: Record<string, string>[];
}

/** A running mock. */
export interface SubscriptionMock {
  readonly url: string;
  /** The second host (Copilot's chat API). */
  readonly apiUrl: string;
  readonly ledger: TokenLedger;
  /** Every upstream API request (not token calls): path, headers, body. */
  readonly calls: { path: string; headers: Headers; body: Record<string, unknown> }[];
  /** Session-token exchanges served. */
  sessions: number;
  /** Issues a fresh access/refresh pair the server accepts. */
  issue(expiresInS?: number): { access_token: string; refresh_token: string; expires_at: number };
  close(): Promise<void>;
}

/** Options of the mock. */
export interface SubscriptionMockOptions {
  /** Delay of each refresh answer (widens race windows). */
  refreshDelayMs?: number;
  /** Lifetime of refreshed access tokens. */
  refreshedLifetimeS?: number;
  /** Copilot's model list answers 500 (the gateway must learn endpoints from 400s). */
  noModelList?: boolean;
  /** The clock session tokens' expiry is counted from (the gateway's, when a test moves it). */
  nowMs?: () => number;
}

const CTX = { requestModel: "mock", now: 1_700_000_000 };

/** A neutral answer with one text part. */
export function answerText(text: string): NeutralResponse {
  return {
    id: "mock-1",
    model: "mock-model",
    parts: [{ kind: "text", text }],
    finish: { unified: "stop", raw: "stop" },
    usage: { inputTotal: 10, cacheRead: 0, cacheWrite: 0, output: 3, reasoning: 0 },
  };
}

/** Starts the mock (two loopback servers). */
export async function startSubscriptionMock(
  options: SubscriptionMockOptions = {},
): Promise<SubscriptionMock> {
  let counter = 0;
  const ledger: TokenLedger = {
    refreshes: 0,
    reuses: 0,
    validAccess: new Set(),
    validRefresh: new Set(),
    spent: new Set(),
    bodies: [],
  };
  const calls: SubscriptionMock["calls"] = [];
  const issue = (expiresInS = 864_000) => {
    counter++;
    const pair = {
      access_token: `at-${counter}-${crypto.randomUUID()}`,
      refresh_token: `rt-${counter}-${crypto.randomUUID()}`,
    };
    ledger.validAccess.add(pair.access_token);
    ledger.validRefresh.add(pair.refresh_token);
    return { ...pair, expires_at: Math.floor(Date.now() / 1000) + expiresInS };
  };
  const state = { sessions: 0 };
  const api = serve((request, url, body) => {
    calls.push({ path: url.pathname, headers: request.headers, body: body as Record<string, unknown> });
    if (options.noModelList && url.pathname === "/models") {
      return Response.json({ error: "down" }, { status: 500 });
    }
    return copilotApi(request, url, body as Record<string, unknown>, ledger);
  });
  const apiUrl = (await api.ready).url;
  const main = serve(async (request, url, body, raw) => {
    const path = url.pathname;
    if (path === "/oauth/token" || path === "/v1/oauth/token" || path === "/login/oauth/access_token") {
      const fields = path === "/v1/oauth/token"
        ? body as Record<string, string>
        : Object.fromEntries(new URLSearchParams(raw));
      ledger.bodies.push(fields);
      if (options.refreshDelayMs) await new Promise((r) => setTimeout(r, options.refreshDelayMs));
      const token = fields.refresh_token;
      if (ledger.spent.has(token)) {
        ledger.reuses++;
        return Response.json({ error: { code: "refresh_token_reused", message: "reused" } }, { status: 400 });
      }
      if (!ledger.validRefresh.has(token)) return Response.json({ error: "invalid_grant" }, { status: 400 });
      ledger.validRefresh.delete(token);
      ledger.spent.add(token);
      ledger.refreshes++;
      const next = issue(options.refreshedLifetimeS);
      return Response.json({
        access_token: next.access_token,
        refresh_token: next.refresh_token,
        expires_in: options.refreshedLifetimeS ?? 864_000,
        token_type: "Bearer",
      });
    }
    if (path === "/copilot_internal/v2/token") {
      const github = request.headers.get("authorization")?.replace(/^token /, "") ?? "";
      if (!ledger.validAccess.has(github)) {
        return Response.json({ message: "Bad credentials" }, { status: 401 });
      }
      state.sessions++;
      const session = `tid=session-${state.sessions}-${crypto.randomUUID()}`;
      ledger.validAccess.add(session);
      return Response.json({
        token: session,
        expires_at: Math.floor((options.nowMs ?? Date.now)() / 1000) + 1500,
        refresh_in: 1200,
        endpoints: { api: apiUrl },
      });
    }
    if (path === "/copilot_internal/user") {
      return Response.json({
        copilot_plan: "individual",
        quota_reset_date: "2026-12-01",
        quota_snapshots: {
          premium_interactions: { entitlement: 300, remaining: 120, percent_remaining: 40, unlimited: false },
        },
      });
    }
    calls.push({ path, headers: request.headers, body: body as Record<string, unknown> });
    const bearer = request.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";
    if (!ledger.validAccess.has(bearer)) {
      return Response.json({ error: { message: "invalid token" } }, { status: 401 });
    }
    if (path === "/backend-api/codex/models") {
      return Response.json({ models: [{ slug: "gpt-5" }, { slug: "gpt-5-codex" }] });
    }
    if (path === "/backend-api/codex/responses" && (body as Record<string, unknown>).model === "echo") {
      // A careless upstream that repeats the credential it was sent in its error text.
      return Response.json(
        { error: { message: `bad request from ${request.headers.get("authorization")}` } },
        { status: 400 },
      );
    }
    if (path === "/backend-api/codex/responses") return codexAnswer(body as Record<string, unknown>);
    if (path === "/v1/messages") return claudeAnswer(request, body as Record<string, unknown>);
    if (path === "/v1/models") {
      return Response.json({ data: [{ id: "claude-sonnet-4-5" }, { id: "claude-opus-4-1" }] });
    }
    return Response.json({ error: { message: `no route ${path}` } }, { status: 404 });
  });
  const url = (await main.ready).url;
  return {
    url,
    apiUrl,
    ledger,
    calls,
    get sessions() {
      return state.sessions;
    },
    issue,
    async close() {
      await main.close();
      await api.close();
    },
  };
}

function serve(
  handler: (request: Request, url: URL, body: unknown, raw: string) => Promise<Response> | Response,
) {
  const controller = new AbortController();
  let resolveReady!: (value: { url: string }) => void;
  const ready = new Promise<{ url: string }>((r) => (resolveReady = r));
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    signal: controller.signal,
    onListen: ({ port }) => resolveReady({ url: `http://127.0.0.1:${port}` }),
  }, async (request) => {
    const url = new URL(request.url);
    const raw = await request.text();
    let body: unknown = {};
    try {
      body = raw ? JSON.parse(raw) : {};
    } catch { /* a form */ }
    return await handler(request, url, body, raw);
  });
  return {
    ready,
    async close() {
      controller.abort();
      await server.finished;
    },
  };
}

function sseOf(format: WireFormat, response: NeutralResponse): Response {
  const stream = ReadableStream.from(responseEvents(response)).pipeThrough(codecFor(format).encodeStream(CTX))
    .pipeThrough(new TextEncoderStream());
  return new Response(stream, { headers: { "content-type": "text/event-stream" } });
}

function sseText(...events: Record<string, unknown>[]): string {
  return events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join("");
}

/** The Codex backend: the model name picks the scenario. */
function codexAnswer(body: Record<string, unknown>): Response {
  const model = String(body.model);
  const headers = {
    "content-type": "text/event-stream",
    "x-codex-primary-used-percent": "42",
    "x-codex-primary-window-minutes": "300",
  };
  if (body.stream !== true) {
    return Response.json({ error: { message: "Stream must be set to true" } }, { status: 400 });
  }
  if (model === "limited") {
    return Response.json({
      error: {
        type: "usage_limit_reached",
        message: "The usage limit has been reached",
        plan_type: "plus",
        resets_in_seconds: 3600,
      },
    }, { status: 429, headers: { "x-codex-primary-used-percent": "100" } });
  }
  const created = {
    type: "response.created",
    response: { id: "resp_1", object: "response", status: "in_progress", model, output: [] },
  };
  if (model === "overloaded") {
    const text = sseText(created, { type: "response.in_progress", response: created.response }, {
      type: "error",
      error: {
        type: "service_unavailable_error",
        code: "server_is_overloaded",
        message: "Our servers are overloaded",
      },
    });
    return new Response(text, { headers });
  }
  if (model === "empty-output") {
    const item = {
      type: "message",
      id: "msg_1",
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: "rebuilt from items", annotations: [] }],
    };
    const usage = { input_tokens: 5, output_tokens: 3, total_tokens: 8 };
    const text = sseText(
      created,
      { type: "response.output_item.added", output_index: 0, item: { ...item, content: [] } },
      {
        type: "response.output_text.delta",
        output_index: 0,
        content_index: 0,
        item_id: "msg_1",
        delta: "rebuilt from items",
      },
      { type: "response.output_item.done", output_index: 0, item },
      {
        type: "response.completed",
        response: { ...created.response, status: "completed", output: [], usage },
      },
    );
    return new Response(text, { headers });
  }
  const response = sseOf("responses", answerText(`codex says hi (${model})`));
  for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
  return response;
}

/** The Claude messages API: the model name picks the scenario. */
function claudeAnswer(request: Request, body: Record<string, unknown>): Response {
  const betas = request.headers.get("anthropic-beta") ?? "";
  if (!betas.split(",").includes("oauth-2025-04-20")) {
    return Response.json({
      type: "error",
      error: { type: "authentication_error", message: "OAuth authentication is currently not supported." },
    }, { status: 401 });
  }
  const reset = Math.floor(Date.now() / 1000) + 5 * 3600;
  const unified = {
    "anthropic-ratelimit-unified-status": "allowed",
    "anthropic-ratelimit-unified-5h-utilization": "0.42",
    "anthropic-ratelimit-unified-5h-reset": String(reset),
  };
  if (body.model === "rejected") {
    return Response.json({ type: "error", error: { type: "rate_limit_error", message: "Rate limited" } }, {
      status: 429,
      headers: {
        ...unified,
        "anthropic-ratelimit-unified-status": "rejected",
        "anthropic-ratelimit-unified-5h-status": "rejected",
        "anthropic-ratelimit-unified-5h-utilization": "1.0",
        "anthropic-ratelimit-unified-representative-claim": "five_hour",
        "anthropic-ratelimit-unified-reset": String(reset),
      },
    });
  }
  const answer = answerText(`claude says hi (${body.model})`);
  const response = body.stream === true
    ? sseOf("messages", answer)
    : Response.json(codecFor("messages").encodeResponse(answer, CTX));
  for (const [k, v] of Object.entries(unified)) response.headers.set(k, v);
  return response;
}

/** Copilot's API host: requires the session token and the editor headers; models list their endpoints. */
function copilotApi(
  request: Request,
  url: URL,
  body: Record<string, unknown>,
  ledger: TokenLedger,
): Response {
  const bearer = request.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";
  if (!bearer.startsWith("tid=") || !ledger.validAccess.has(bearer)) {
    return Response.json({ error: { message: "unauthorized: session token required" } }, { status: 401 });
  }
  if (
    !request.headers.get("editor-version") || request.headers.get("copilot-integration-id") !== "vscode-chat"
  ) {
    return Response.json({ error: { message: "missing editor headers" } }, { status: 400 });
  }
  if (url.pathname === "/models") {
    return Response.json({
      data: [
        { id: "gpt-4.1", supported_endpoints: ["/chat/completions", "/responses"] },
        { id: "gpt-5-codex", supported_endpoints: ["/responses"] },
        { id: "claude-sonnet-4.5", supported_endpoints: ["/v1/messages", "/chat/completions"] },
        { id: "claude-only", supported_endpoints: ["/v1/messages"] },
      ],
    });
  }
  const stream = body.stream === true;
  const model = String(body.model);
  if (model === "limited") {
    // Copilot's rate limit: a plain 429 with Retry-After (seconds).
    return Response.json({ error: { message: "Sorry, you have been rate-limited.", code: "rate_limited" } }, {
      status: 429,
      headers: { "retry-after": "120" },
    });
  }
  const format: WireFormat = url.pathname === "/chat/completions"
    ? "chat_completions"
    : url.pathname === "/responses"
    ? "responses"
    : "messages";
  if (format === "chat_completions" && (model === "gpt-5-codex" || model === "claude-only")) {
    return Response.json({
      error: { message: `model ${model} is not accessible via the /chat/completions endpoint` },
    }, { status: 400 });
  }
  const answer = answerText(`copilot ${format} says hi (${model})`);
  return stream ? sseOf(format, answer) : Response.json(codecFor(format).encodeResponse(answer, CTX));
}
