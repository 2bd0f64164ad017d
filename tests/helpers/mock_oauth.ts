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

/** A running mock OAuth server. */
export interface MockOAuth extends AsyncDisposable {
  readonly url: string;
  readonly requests: OAuthRequest[];
  readonly userCode: string;
  /** The device-token answers, in order; the last one repeats. */
  deviceSteps(...steps: DeviceStep[]): void;
  /** The interval the device endpoint announces (seconds). */
  interval: number;
  /** YAML `oauth:` overrides pointing a provider at this mock. */
  overridesYaml(indent: string): string;
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
      deviceSteps(...next) {
        steps = next;
        polls = 0;
      },
      overridesYaml(indent) {
        const u = mock.url;
        return [
          "oauth:",
          `  device_code_url: ${u}/login/device/code`,
          `  device_token_url: ${u}/login/oauth/access_token`,
          `  verification_url: ${u}/login/device`,
          `  authorize_url: ${u}/oauth/authorize`,
          `  token_url: ${u}/oauth/token`,
          `  redirect_uri: ${u}/callback`,
          `  client_id: mock-client`,
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
            expires_in: 3600,
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
