/**
 * A mock AWS SSO-OIDC server on a free loopback port, for the Kiro device sign-in: `client/register`,
 * `device_authorization` and `token` (device-code polls answering a scripted sequence, and refresh-token
 * grants), all camelCase JSON like the real service, which refuses snake_case fields. Errors come as AWS
 * sends them: HTTP 400 with `error` (and the `__type` name), or only the `__type` name. Every request is
 * recorded.
 */
import type { DeviceStep } from "./mock_oauth.ts";

/** One recorded request to the mock. */
export interface AwsOidcRequest {
  readonly path: string;
  readonly contentType: string;
  readonly body: Record<string, unknown>;
}

/** What one device-token poll answers: the RFC 8628 outcomes, which AWS names by exception type. */
export type AwsDeviceStep = DeviceStep;

/** The registered client's secret (no key-like shape, so only literal redaction can hide it). */
export const AWS_CLIENT_SECRET = "Zk3pQ9vLm2Xr8TnB4wYc6HdJ1sFa7GeUo5Ki0RqW";
export const AWS_CLIENT_ID = "aws-client-id-1234567890";
export const AWS_DEVICE_CODE = "aws-device-code-secret-abcdef";
export const AWS_USER_CODE = "KIRO-WXYZ";
export const AWS_ACCESS_TOKEN = "aoaAAAAAmockKiroAccessToken0123456789";
export const AWS_REFRESH_TOKEN = "aorAAAAAmockKiroRefreshToken0123456789";
/** What a refresh grant hands out. */
export const AWS_REFRESHED_ACCESS_TOKEN = "aoaAAAAAmockKiroRefreshedAccess9876543210";

const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

/** A running mock. */
export interface MockAwsOidc extends AsyncDisposable {
  readonly url: string;
  readonly requests: AwsOidcRequest[];
  /** The device-token answers, in order; the last one repeats. */
  deviceSteps(...steps: AwsDeviceStep[]): void;
  /** The interval `device_authorization` announces (seconds). */
  interval: number;
  /** How long the issued access tokens live (seconds). */
  tokenLifetimeS: number;
  /** YAML `oauth:` overrides pointing a Kiro provider's device sign-in (and OIDC refresh) at this mock. */
  overridesYaml(indent: string, extra?: Record<string, string>): string;
  close(): Promise<void>;
}

const AWS_ERROR_TYPES: Record<string, string> = {
  authorization_pending: "AuthorizationPendingException",
  slow_down: "SlowDownException",
  access_denied: "AccessDeniedException",
  expired_token: "ExpiredTokenException",
};

/**
 * YAML for a gateway with one Kiro provider (prefix `kr`, no credential yet) on `kiroUrl`, signing in at
 * `oidc`, and a static admin key.
 */
export function kiroGatewayYaml(oidc: MockAwsOidc, kiroUrl: string, adminKey: string): string {
  return `providers:
  - id: kiro
    prefix: kr
    api_type: cloud_assistant_oauth
    base_url: ${kiroUrl}
    models: [claude-sonnet-4.5]
${oidc.overridesYaml("    ")}api_keys:
  - key: ${adminKey}
    client_key_label: admin
`;
}

/** Starts the mock. */
export function startMockAwsOidc(): Promise<MockAwsOidc> {
  const requests: AwsOidcRequest[] = [];
  let steps: AwsDeviceStep[] = ["ok"];
  let polls = 0;
  const controller = new AbortController();
  return new Promise((resolve) => {
    const mock: Omit<MockAwsOidc, "url"> & { url?: string } = {
      requests,
      interval: 1,
      tokenLifetimeS: 3600,
      deviceSteps(...next) {
        steps = next;
        polls = 0;
      },
      overridesYaml(indent, extra = {}) {
        const u = mock.url;
        const lines = [
          "oauth:",
          `  register_url: ${u}/client/register`,
          `  device_code_url: ${u}/device_authorization`,
          `  device_token_url: ${u}/token`,
          ...Object.entries(extra).map(([k, v]) => `  ${k}: ${v}`),
        ];
        return lines.map((line) => indent + line).join("\n") + "\n";
      },
      close: async () => {
        controller.abort();
        await server.finished;
      },
      [Symbol.asyncDispose]: () => mock.close(),
    };
    const json = (body: unknown, status = 200, type?: string) =>
      new Response(JSON.stringify(body), {
        status,
        headers: { "content-type": "application/json", ...(type ? { "x-amzn-errortype": type } : {}) },
      });
    const invalid = (message: string) =>
      json({ error: "invalid_request", error_description: message }, 400, "InvalidRequestException");
    const server = Deno.serve({
      hostname: "127.0.0.1",
      port: 0,
      signal: controller.signal,
      onListen: ({ port }) => {
        mock.url = `http://127.0.0.1:${port}`;
        resolve(mock as MockAwsOidc);
      },
    }, async (request) => {
      const url = new URL(request.url);
      const contentType = request.headers.get("content-type") ?? "";
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(await request.text() || "{}");
      } catch { /* recorded empty; answered below */ }
      requests.push({ path: url.pathname, contentType, body });
      if (request.method !== "POST" || !contentType.includes("json")) return invalid("JSON POST only");
      const clientOk = body.clientId === AWS_CLIENT_ID && body.clientSecret === AWS_CLIENT_SECRET;
      switch (url.pathname) {
        case "/client/register": {
          const scopes = body.scopes as unknown;
          const grants = body.grantTypes as unknown;
          if (
            body.clientType !== "public" || typeof body.clientName !== "string" ||
            !Array.isArray(scopes) || !scopes.includes("codewhisperer:completions") ||
            !Array.isArray(grants) || !grants.includes(DEVICE_GRANT) || !grants.includes("refresh_token") ||
            typeof body.issuerUrl !== "string"
          ) return invalid("clientName, clientType, scopes, grantTypes and issuerUrl are required");
          const now = Math.floor(Date.now() / 1000);
          return json({
            clientId: AWS_CLIENT_ID,
            clientSecret: AWS_CLIENT_SECRET,
            clientIdIssuedAt: now,
            clientSecretExpiresAt: now + 90 * 86_400,
          });
        }
        case "/device_authorization":
          if (!clientOk) return json({ error: "invalid_client" }, 401, "InvalidClientException");
          if (typeof body.startUrl !== "string") return invalid("startUrl is required");
          return json({
            deviceCode: AWS_DEVICE_CODE,
            userCode: AWS_USER_CODE,
            verificationUri: `${mock.url}/device`,
            verificationUriComplete: `${mock.url}/device?user_code=${AWS_USER_CODE}`,
            expiresIn: 600,
            interval: mock.interval,
          });
        case "/token": {
          if (!clientOk) return json({ error: "invalid_client" }, 401, "InvalidClientException");
          if (body.grantType === "refresh_token") {
            if (body.refreshToken !== AWS_REFRESH_TOKEN) {
              return json({ error: "invalid_grant" }, 400, "InvalidGrantException");
            }
            return json({
              accessToken: AWS_REFRESHED_ACCESS_TOKEN,
              refreshToken: AWS_REFRESH_TOKEN,
              expiresIn: 3600,
              tokenType: "Bearer",
            });
          }
          if (body.grantType !== DEVICE_GRANT || body.deviceCode !== AWS_DEVICE_CODE) {
            return json({ error: "invalid_grant" }, 400, "InvalidGrantException");
          }
          const step = steps[Math.min(polls++, steps.length - 1)];
          if (step === "ok") {
            return json({
              accessToken: AWS_ACCESS_TOKEN,
              refreshToken: AWS_REFRESH_TOKEN,
              expiresIn: mock.tokenLifetimeS,
              tokenType: "Bearer",
            });
          }
          const type = AWS_ERROR_TYPES[step];
          // An expired code is answered with only the AWS type name, the way some AWS front ends do.
          if (step === "expired_token") {
            return json({ __type: type, message: "Device code expired" }, 400, type);
          }
          return json({ error: step, error_description: `mock says ${step}`, __type: type }, 400, type);
        }
        default:
          return json({ error: "not_found" }, 404);
      }
    });
  });
}
