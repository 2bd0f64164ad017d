/**
 * A mock OAuth server on a free loopback port for the sign-in tests: an RFC 8628 device endpoint whose
 * token endpoint answers a scripted sequence (pending, slow_down, success, denial, expiry), an authorize
 * endpoint that redirects straight back with a code, and a token endpoint that checks the PKCE verifier
 * against the challenge the authorize call carried. Every request is recorded.
 */

/** One recorded request to the mock. */
export interface OAuthRequest {
  readonly path: string;
  readonly contentType: string;
  readonly fields: Record<string, string>;
}

/** What one device-token poll answers. */
export type DeviceStep = "authorization_pending" | "slow_down" | "access_denied" | "expired_token" | "ok";

/** Tokens the mock issues (tests assert they never show up where they must not). */
export const MOCK_ACCESS_TOKEN = "gho_mockAccessTokenSecret123456";
export const MOCK_REFRESH_TOKEN = "mock-refresh-token-secret-abcdef";
/** OpenAI's device-callback redirect URI (the kind table's default; not overridable, no request goes there). */
export const OPENAI_DEVICE_REDIRECT = "https://auth.openai.com/deviceauth/callback";
/** The Copilot session token the mock trades for the GitHub token. */
export const MOCK_SESSION_TOKEN = "tid=mock-copilot-session-secret";

/** A running mock OAuth server. */
export interface MockOAuth extends AsyncDisposable {
  readonly url: string;
  readonly requests: OAuthRequest[];
  readonly userCode: string;
  /** The device-token answers, in order; the last one repeats. */
  deviceSteps(...steps: DeviceStep[]): void;
  /** The interval the device endpoint announces (seconds). */
  interval: number;
  /** The chat API base the Copilot session-token exchange names (`endpoints.api`). */
  copilotApi: string;
  /** YAML `oauth:` overrides pointing a provider at this mock (`openai`: OpenAI's device-auth paths). */
  overridesYaml(indent: string, device?: "github" | "openai"): string;
  close(): Promise<void>;
}

/** Starts the mock. */
export function startMockOAuth(): Promise<MockOAuth> {
  const requests: OAuthRequest[] = [];
  let steps: DeviceStep[] = ["ok"];
  let polls = 0;
  const codes = new Map<string, { challenge: string; redirectUri: string; clientId: string }>();
  const controller = new AbortController();
  const userCode = "WDJB-MJHT";
  return new Promise((resolve) => {
    const mock: Omit<MockOAuth, "url"> & { url?: string } = {
      requests,
      userCode,
      interval: 1,
      copilotApi: "http://127.0.0.1:9",
      deviceSteps(...next) {
        steps = next;
        polls = 0;
      },
      overridesYaml(indent, device = "github") {
        const u = mock.url;
        return [
          "oauth:",
          device === "github"
            ? `  device_code_url: ${u}/login/device/code`
            : `  device_code_url: ${u}/api/accounts/deviceauth/usercode`,
          device === "github"
            ? `  device_token_url: ${u}/login/oauth/access_token`
            : `  device_token_url: ${u}/api/accounts/deviceauth/token`,
          `  verification_url: ${u}/login/device`,
          `  authorize_url: ${u}/oauth/authorize`,
          `  token_url: ${u}/oauth/token`,
          `  redirect_uri: ${u}/callback`,
          `  client_id: mock-client`,
          `  session_token_url: ${u}/copilot_internal/v2/token`,
        ].map((line) => indent + line).join("\n") + "\n";
      },
      close: async () => {
        controller.abort();
        await server.finished;
      },
      [Symbol.asyncDispose]: () => mock.close(),
    };
    const json = (body: unknown, status = 200) =>
      new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
    const server = Deno.serve({
      hostname: "127.0.0.1",
      port: 0,
      signal: controller.signal,
      onListen: ({ port }) => {
        mock.url = `http://127.0.0.1:${port}`;
        resolve(mock as MockOAuth);
      },
    }, async (request) => {
      const url = new URL(request.url);
      const contentType = request.headers.get("content-type") ?? "";
      const text = request.method === "POST" ? await request.text() : "";
      const fields: Record<string, string> = contentType.includes("json")
        ? JSON.parse(text || "{}")
        : Object.fromEntries(new URLSearchParams(text));
      requests.push({ path: url.pathname, contentType, fields });
      switch (url.pathname) {
        case "/login/device/code":
          if (fields.client_id !== "mock-client") return json({ error: "invalid_client" }, 401);
          return json({
            device_code: "mock-device-code-secret",
            user_code: userCode,
            verification_uri: `${mock.url}/login/device`,
            expires_in: 900,
            interval: mock.interval,
          });
        case "/login/oauth/access_token": {
          if (fields.device_code !== "mock-device-code-secret") {
            return json({ error: "bad_verification_code" });
          }
          if (fields.grant_type !== "urn:ietf:params:oauth:grant-type:device_code") {
            return json({ error: "unsupported_grant_type" });
          }
          const step = steps[Math.min(polls++, steps.length - 1)];
          // GitHub answers these errors with HTTP 200, like this.
          if (step !== "ok") return json({ error: step, error_description: `mock says ${step}` });
          return json({ access_token: MOCK_ACCESS_TOKEN, token_type: "bearer", scope: "read:user" });
        }
        case "/oauth/authorize": {
          const redirect = url.searchParams.get("redirect_uri") ?? "";
          if (url.searchParams.get("code_challenge_method") !== "S256") {
            return new Response("S256 only", { status: 400 });
          }
          const code = `code-${crypto.randomUUID()}`;
          codes.set(code, {
            challenge: url.searchParams.get("code_challenge") ?? "",
            redirectUri: redirect,
            clientId: url.searchParams.get("client_id") ?? "",
          });
          const back = new URL(redirect);
          back.searchParams.set("code", code);
          back.searchParams.set("state", url.searchParams.get("state") ?? "");
          return new Response(null, { status: 302, headers: { location: back.toString() } });
        }
        case "/api/accounts/deviceauth/usercode":
          if (fields.client_id !== "mock-client" || !contentType.includes("json")) {
            return json({ error: { message: "bad client", type: "invalid_request_error" } }, 400);
          }
          return json({
            device_auth_id: "mock-device-code-secret",
            user_code: "CODX-1234",
            interval: String(mock.interval),
          });
        case "/api/accounts/deviceauth/token": {
          if (fields.device_auth_id !== "mock-device-code-secret" || fields.user_code !== "CODX-1234") {
            return json({ error: { message: "unknown device auth" } }, 400);
          }
          const step = steps[Math.min(polls++, steps.length - 1)];
          if (step === "authorization_pending" || step === "slow_down") {
            return json({ error: { message: "pending" } }, 403);
          }
          if (step !== "ok") return json({ error: { message: `mock says ${step}`, code: step } }, 400);
          // OpenAI generates the PKCE pair itself and hands both halves over once the user approves.
          const verifier = `openai-verifier-${crypto.randomUUID()}`;
          const code = `device-code-${crypto.randomUUID()}`;
          const challenge = await s256(verifier);
          codes.set(code, { challenge, redirectUri: OPENAI_DEVICE_REDIRECT, clientId: "mock-client" });
          return json({ authorization_code: code, code_challenge: challenge, code_verifier: verifier });
        }
        case "/copilot_internal/v2/token": {
          if (request.headers.get("authorization") !== `token ${MOCK_ACCESS_TOKEN}`) {
            return json({ message: "Bad credentials" }, 401);
          }
          const now = Math.floor(Date.now() / 1000);
          return json({
            token: MOCK_SESSION_TOKEN,
            expires_at: now + 1800,
            refresh_in: 1500,
            endpoints: { api: mock.copilotApi },
          });
        }
        case "/callback":
          return new Response(
            "<html><body><p>Signed in. Copy this page's address back into the gateway.</p></body></html>",
            {
              headers: { "content-type": "text/html" },
            },
          );
        case "/oauth/token": {
          const issued = codes.get(fields.code ?? "");
          if (fields.grant_type !== "authorization_code" || !issued) {
            return json({ error: "invalid_grant", error_description: "unknown or used code" }, 400);
          }
          codes.delete(fields.code);
          if (issued.redirectUri !== fields.redirect_uri || issued.clientId !== fields.client_id) {
            return json(
              { error: "invalid_grant", error_description: "redirect_uri or client mismatch" },
              400,
            );
          }
          if (await s256(fields.code_verifier ?? "") !== issued.challenge) {
            return json({ error: "invalid_grant", error_description: "code_verifier does not match" }, 400);
          }
          return json({
            access_token: MOCK_ACCESS_TOKEN,
            refresh_token: MOCK_REFRESH_TOKEN,
            // Ten days: past every kind's refresh lead time, so a fresh sign-in is used, not refreshed at once.
            expires_in: 864_000,
            token_type: "Bearer",
          });
        }
        default:
          return json({ error: "not_found" }, 404);
      }
    });
  });
}

async function s256(verifier: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  let binary = "";
  for (const byte of digest) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * YAML list entries (under `providers:`) for a Copilot provider (device sign-in, `cp/`) and a Claude one
 * (PKCE, `cl/`), both signing in at `mock`.
 */
export function signinProvidersYaml(mock: MockOAuth): string {
  return `  - id: copilot
    prefix: cp
    api_type: device_oauth_assistant
    base_url: http://127.0.0.1:9
    models: [gpt-4o]
${mock.overridesYaml("    ")}  - id: claude
    prefix: cl
    api_type: messages_oauth
    base_url: http://127.0.0.1:9
    models: [claude-sonnet]
${mock.overridesYaml("    ")}`;
}
