/**
 * OpenAI's own device sign-in for Codex (not RFC 8628): a user code from `deviceauth/usercode`, polls of
 * `deviceauth/token` that answer 403/404 while the user has not approved, and on approval an authorization
 * code plus the PKCE verifier OpenAI generated, which are exchanged at the token endpoint like a browser
 * sign-in (on OpenAI's device-callback redirect URI).
 */
import { couldNotStart } from "./device_grant.ts";
import type { DeviceFlowEndpoints, DeviceGrant, DevicePoll } from "./device_types.ts";
import { numberField, oauthError, type OAuthFetch, postOAuth, stringField } from "./oauth_http.ts";
import { readTokenAnswer } from "./token_answer.ts";

/** OpenAI's device codes live 15 minutes (the Codex CLI gives up then too). */
const OPENAI_DEVICE_TTL_S = 15 * 60;

/** Asks for a user code. */
export async function requestOpenAiDeviceCode(
  fetcher: OAuthFetch,
  endpoints: DeviceFlowEndpoints,
  nowMs: number,
): Promise<DeviceGrant> {
  const answer = await postOAuth(fetcher, endpoints.deviceUrl, { client_id: endpoints.clientId }, "json");
  const id = stringField(answer.body, "device_auth_id");
  const userCode = stringField(answer.body, "user_code", "usercode");
  if (answer.status >= 300 || !id || !userCode || !endpoints.verificationUri) {
    const why = oauthError(answer.body)?.text ?? `HTTP ${answer.status} without device_auth_id and user_code`;
    throw couldNotStart(endpoints.deviceUrl, why);
  }
  return {
    deviceCode: id,
    userCode,
    verificationUri: endpoints.verificationUri,
    intervalS: Math.max(1, Math.ceil(numberField(answer.body, "interval") ?? 5)),
    expiresAt: nowMs + OPENAI_DEVICE_TTL_S * 1000,
  };
}

/** Polls once; on approval exchanges the code for tokens. */
export async function pollOpenAiDevice(
  fetcher: OAuthFetch,
  endpoints: DeviceFlowEndpoints,
  grant: DeviceGrant,
  nowMs: number,
  signal?: AbortSignal,
): Promise<DevicePoll> {
  const answer = await postOAuth(
    fetcher,
    endpoints.tokenUrl,
    { device_auth_id: grant.deviceCode, user_code: grant.userCode },
    "json",
    signal,
  );
  if (answer.status === 403 || answer.status === 404) return { kind: "pending" };
  const code = stringField(answer.body, "authorization_code");
  const verifier = stringField(answer.body, "code_verifier");
  if (answer.status >= 300 || !code || !verifier) {
    const why = oauthError(answer.body)?.text ?? `HTTP ${answer.status} without an authorization code`;
    return { kind: "failed", message: `The device sign-in failed: ${why}` };
  }
  if (!endpoints.exchangeUrl || !endpoints.redirectUri) {
    return { kind: "failed", message: "The device sign-in has no token endpoint to exchange its code at" };
  }
  const exchange = await postOAuth(
    fetcher,
    endpoints.exchangeUrl,
    {
      grant_type: "authorization_code",
      code,
      redirect_uri: endpoints.redirectUri,
      client_id: endpoints.clientId,
      code_verifier: verifier,
    },
    endpoints.exchangeEncoding ?? "form",
    signal,
  );
  const outcome = readTokenAnswer(exchange, nowMs);
  if (outcome.ok) return { kind: "done", credential: outcome.credential };
  return { kind: "failed", message: `The code exchange failed: ${outcome.message}` };
}
