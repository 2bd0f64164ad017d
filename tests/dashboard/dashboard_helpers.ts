import { chatProvidersYaml, startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { type MockUpstream, startMockUpstream } from "../helpers/mock_upstream.ts";
import { waitFor } from "../helpers/wait.ts";

/** The static YAML key every dashboard test signs in with. */
export const ADMIN_KEY = "static-admin-key-1234567890";

/** A gateway with one chat provider on a mock upstream and a static key. */
export interface DashboardSetup {
  readonly gw: TestGateway;
  readonly mock: MockUpstream;
  /** Calls the gateway with the admin key (unless headers override authorization). */
  api(path: string, init?: RequestInit): Promise<Response>;
  /** Calls and parses JSON, asserting nothing. */
  json(
    path: string,
    init?: RequestInit,
  ): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Starts the setup; `extraYaml` is appended to the providers section. */
export async function setupDashboard(extraYaml = ""): Promise<DashboardSetup> {
  const mock = await startMockUpstream();
  const gw = await startTestGateway(
    chatProvidersYaml([{ id: "acct-a", prefix: "p", url: mock.url }], "") +
      `api_keys:\n  - key: ${ADMIN_KEY}\n    client_key_label: admin\n${extraYaml}`,
  );
  const api = (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (!headers.has("authorization") && !headers.has("cookie")) {
      headers.set("authorization", `Bearer ${ADMIN_KEY}`);
    }
    if (typeof init.body === "string" && !headers.has("content-type")) {
      headers.set("content-type", "application/json");
    }
    return fetch(`${gw.url}${path}`, { redirect: "manual", ...init, headers });
  };
  return {
    gw,
    mock,
    api,
    async json(path, init) {
      const response = await api(path, init);
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : {}, headers: response.headers };
    },
    async [Symbol.asyncDispose]() {
      await gw.stop();
      await mock.close();
    },
  };
}

/** A JSON request init. */
export function body(method: string, value: unknown): RequestInit {
  return { method, body: JSON.stringify(value), headers: { "content-type": "application/json" } };
}

/** A dashboard API caller signed in with `key` that remembers every answer body, to check none carries a token. */
export function recordingClient(gw: TestGateway, key: string, seen: string[]) {
  return async (method: string, path: string, body?: unknown, asKey = key) => {
    const response = await fetch(`${gw.url}/dashboard/api${path}`, {
      method,
      headers: { authorization: `Bearer ${asKey}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    seen.push(text);
    return { status: response.status, body: text ? JSON.parse(text) : {}, headers: response.headers };
  };
}

/** Reads until `done` holds, every 100 ms for at most 20 s. */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value: T | undefined;
  await waitFor(async () => done(value = await read()), { what: "the awaited answer", intervalMs: 100 });
  return value as T;
}
