/**
 * AWS SSO-OIDC device sign-in (Kiro with Builder ID or IAM Identity Center). Unlike RFC 8628 it starts by
 * registering a public client (`client/register`), then asks `device_authorization` for a code with that
 * client, and polls `token` with it; every body is camelCase JSON. The registered client id and secret are
 * what the OIDC refresh needs later, so the finished credential carries them (sealed) with the region and
 * start URL; `pending`, `slow_down`, denial and expiry mean what RFC 8628 says.
 */
import { BUILDER_ID_START_URL } from "../../credentials/mod.ts";
import { GatewayError } from "../../model/mod.ts";
import { type DeviceFlowEndpoints, type DeviceGrant, type DevicePoll, pollForError } from "./device_types.ts";
import { couldNotStart, deviceGrant } from "./device_grant.ts";
import {
  numberField,
  type OAuthAnswer,
  oauthError,
  type OAuthFetch,
  postOAuth,
  stringField,
} from "./oauth_http.ts";
import type { SignedInCredential } from "./token_answer.ts";

/** The device-code grant type AWS expects, in camelCase `grantType`. */
const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
/** AWS device codes live 10 minutes when the answer does not say. */
const DEFAULT_EXPIRES_S = 600;
/** The name the registered client shows on AWS's approval page. */
const CLIENT_NAME = "gateway";

/** AWS error type names (`__type`, e.g. `…#SlowDownException`) → the RFC 8628 codes they stand for. */
const AWS_ERROR_TYPES: Readonly<Record<string, string>> = {
  AuthorizationPendingException: "authorization_pending",
  SlowDownException: "slow_down",
  ExpiredTokenException: "expired_token",
  AccessDeniedException: "access_denied",
  InvalidGrantException: "invalid_grant",
  InvalidClientException: "invalid_client",
  UnauthorizedClientException: "unauthorized_client",
};

/** Registers a client, then asks for a device code with it. */
export async function requestAwsDeviceCode(
  fetcher: OAuthFetch,
  endpoints: DeviceFlowEndpoints,
  nowMs: number,
): Promise<DeviceGrant> {
  if (!endpoints.registerUrl || !endpoints.startUrl) {
    throw new GatewayError(500, "internal", "The AWS device sign-in needs a register URL and a start URL");
  }
  const registered = await postOAuth(fetcher, endpoints.registerUrl, {
    clientName: CLIENT_NAME,
    clientType: "public",
    scopes: endpoints.scope.split(/\s+/).filter((s) => s !== ""),
    grantTypes: [DEVICE_GRANT, "refresh_token"],
    issuerUrl: endpoints.startUrl,
  }, "json");
  const clientId = stringField(registered.body, "clientId");
  const clientSecret = stringField(registered.body, "clientSecret");
  if (registered.status >= 300 || !clientId || !clientSecret) {
    throw awsCouldNotStart(endpoints.registerUrl, registered, "without clientId and clientSecret");
  }
  const answer = await postOAuth(
    fetcher,
    endpoints.deviceUrl,
    { clientId, clientSecret, startUrl: endpoints.startUrl },
    "json",
  );
  const deviceCode = stringField(answer.body, "deviceCode");
  const userCode = stringField(answer.body, "userCode");
  const verificationUri = stringField(answer.body, "verificationUri") ?? endpoints.verificationUri;
  if (answer.status >= 300 || !deviceCode || !userCode || !verificationUri) {
    throw awsCouldNotStart(endpoints.deviceUrl, answer, "without deviceCode, userCode and verificationUri");
  }
  const grant = deviceGrant({
    deviceCode,
    userCode,
    verificationUri,
    verificationUriComplete: stringField(answer.body, "verificationUriComplete"),
    intervalS: numberField(answer.body, "interval"),
    expiresInS: numberField(answer.body, "expiresIn") ?? DEFAULT_EXPIRES_S,
  }, nowMs);
  return { ...grant, client: { clientId, clientSecret } };
}

/** Polls the token endpoint once with the registered client. */
export async function pollAwsDevice(
  fetcher: OAuthFetch,
  endpoints: DeviceFlowEndpoints,
  grant: DeviceGrant,
  nowMs: number,
  signal?: AbortSignal,
): Promise<DevicePoll> {
  if (!grant.client) return { kind: "failed", message: "The AWS device sign-in has no registered client" };
  const { clientId, clientSecret } = grant.client;
  const answer = await postOAuth(
    fetcher,
    endpoints.tokenUrl,
    { clientId, clientSecret, deviceCode: grant.deviceCode, grantType: DEVICE_GRANT },
    "json",
    signal,
  );
  const code = awsErrorCode(answer);
  if (code !== undefined) return pollForError(code, awsErrorText(answer, code));
  const accessToken = stringField(answer.body, "accessToken");
  if (answer.status >= 300 || !accessToken) {
    return {
      kind: "failed",
      message: `The token endpoint refused the sign-in: HTTP ${answer.status} without an accessToken`,
    };
  }
  const refreshToken = stringField(answer.body, "refreshToken");
  const expiresIn = numberField(answer.body, "expiresIn");
  const profileArn = stringField(answer.body, "profileArn");
  const startUrl = endpoints.startUrl ?? BUILDER_ID_START_URL;
  const credential: SignedInCredential = {
    access_token: accessToken,
    ...(refreshToken ? { refresh_token: refreshToken } : {}),
    ...(expiresIn !== undefined && expiresIn > 0
      ? { expires_at: Math.floor(nowMs / 1000) + Math.floor(expiresIn) }
      : {}),
    extra: {
      // The host order and the profile rule read this (src/executors/cloud_assistant.ts).
      authMethod: startUrl === BUILDER_ID_START_URL ? "builder-id" : "idc",
      region: endpoints.region ?? "us-east-1",
      startUrl,
      clientId,
      clientSecret,
      ...(profileArn ? { profileArn } : {}),
    },
  };
  return { kind: "done", credential };
}

/** The RFC 8628 code of an error answer, from `error` or from AWS's `__type`. */
function awsErrorCode(answer: OAuthAnswer): string | undefined {
  const named = oauthError(answer.body)?.code;
  if (named !== undefined) return named;
  const type = stringField(answer.body, "__type");
  if (type === undefined) return answer.status >= 300 ? `http_${answer.status}` : undefined;
  const name = type.slice(type.lastIndexOf("#") + 1);
  return AWS_ERROR_TYPES[name] ?? name;
}

function awsErrorText(answer: OAuthAnswer, code: string): string {
  const described = oauthError(answer.body)?.text;
  if (described !== undefined) return described;
  if (code === `http_${answer.status}`) return `HTTP ${answer.status}`;
  const message = stringField(answer.body, "message", "error_description");
  return message ? `${code}: ${message.replace(/\s+/g, " ").slice(0, 200)}` : code;
}

function awsCouldNotStart(url: string, answer: OAuthAnswer, missing: string): GatewayError {
  const code = awsErrorCode(answer);
  return couldNotStart(
    url,
    code !== undefined ? awsErrorText(answer, code) : `HTTP ${answer.status} ${missing}`,
  );
}
