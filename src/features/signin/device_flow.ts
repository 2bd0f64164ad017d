/**
 * OAuth 2.0 device authorization (RFC 8628; OpenAI's and AWS's variants dispatch to their own modules): ask for a device code, then poll the token endpoint at the
 * server's interval (5 s longer after each `slow_down`) until the user approves, denies, or the code
 * expires. The clock, the sleep and the fetch are passed in, so the loop is tested without waiting.
 */
import { couldNotStart, deviceGrant } from "./device_grant.ts";
import { numberField, oauthError, type OAuthFetch, postOAuth, stringField } from "./oauth_http.ts";
import { pollOpenAiDevice, requestOpenAiDeviceCode } from "./openai_device.ts";
import { readTokenAnswer, type SignedInCredential } from "./token_answer.ts";
import { pollAwsDevice, requestAwsDeviceCode } from "./aws_oidc_device.ts";
import { type DeviceFlowEndpoints, type DeviceGrant, type DevicePoll, pollForError } from "./device_types.ts";

export type { DeviceFlowEndpoints, DeviceGrant, DevicePoll };
export { DEFAULT_INTERVAL_S, MIN_INTERVAL_S } from "./device_grant.ts";

/** RFC 8628 §3.5: each `slow_down` adds five seconds to the interval, for good. */
export const SLOW_DOWN_STEP_S = 5;
/** How long a code lives when the server does not say (GitHub's codes live 15 minutes). */
const DEFAULT_EXPIRES_S = 900;

/** Asks the device endpoint for a code. */
export async function requestDeviceCode(
  fetcher: OAuthFetch,
  endpoints: DeviceFlowEndpoints,
  nowMs: number,
): Promise<DeviceGrant> {
  if (endpoints.protocol === "openai_deviceauth") return requestOpenAiDeviceCode(fetcher, endpoints, nowMs);
  if (endpoints.protocol === "aws_oidc") return requestAwsDeviceCode(fetcher, endpoints, nowMs);
  const fields: Record<string, string> = { client_id: endpoints.clientId };
  if (endpoints.scope) fields.scope = endpoints.scope;
  const answer = await postOAuth(fetcher, endpoints.deviceUrl, fields, endpoints.encoding);
  const error = oauthError(answer.body);
  const deviceCode = stringField(answer.body, "device_code");
  const userCode = stringField(answer.body, "user_code");
  const verificationUri = stringField(answer.body, "verification_uri", "verification_url");
  if (error || answer.status >= 300 || !deviceCode || !userCode || !verificationUri) {
    const why = error?.text ?? `HTTP ${answer.status} without device_code, user_code and verification_uri`;
    throw couldNotStart(endpoints.deviceUrl, why);
  }
  return deviceGrant({
    deviceCode,
    userCode,
    verificationUri,
    verificationUriComplete: stringField(answer.body, "verification_uri_complete"),
    intervalS: numberField(answer.body, "interval"),
    expiresInS: numberField(answer.body, "expires_in") ?? DEFAULT_EXPIRES_S,
  }, nowMs);
}

/** Polls the token endpoint once. */
export async function pollDeviceToken(
  fetcher: OAuthFetch,
  endpoints: DeviceFlowEndpoints,
  grant: DeviceGrant,
  nowMs: number,
  signal?: AbortSignal,
): Promise<DevicePoll> {
  if (endpoints.protocol === "openai_deviceauth") {
    return pollOpenAiDevice(fetcher, endpoints, grant, nowMs, signal);
  }
  if (endpoints.protocol === "aws_oidc") return pollAwsDevice(fetcher, endpoints, grant, nowMs, signal);
  const answer = await postOAuth(
    fetcher,
    endpoints.tokenUrl,
    {
      client_id: endpoints.clientId,
      device_code: grant.deviceCode,
      grant_type: "urn:ietf:params:oauth:grant-type:device_code",
    },
    endpoints.encoding,
    signal,
  );
  const outcome = readTokenAnswer(answer, nowMs);
  if (outcome.ok) return { kind: "done", credential: outcome.credential };
  return pollForError(outcome.code, outcome.message, numberField(answer.body, "interval"));
}

/** The interval to wait before the next poll, after `poll`. */
export function nextIntervalS(currentS: number, poll: DevicePoll): number {
  if (poll.kind !== "slow_down") return currentS;
  // GitHub names the new interval itself; RFC 8628 servers leave the +5 s to the client.
  const stepped = currentS + SLOW_DOWN_STEP_S;
  return poll.intervalS !== undefined ? Math.max(stepped, Math.ceil(poll.intervalS)) : stepped;
}

/** The end of a device sign-in. */
export type DeviceResult =
  | { readonly kind: "done"; readonly credential: SignedInCredential }
  | { readonly kind: "denied" | "expired" | "failed" | "cancelled"; readonly message: string };

/** What the polling loop needs from the outside world. */
export interface DeviceLoopDeps {
  readonly fetch: OAuthFetch;
  readonly now: () => number;
  /** Waits `ms`; resolves early (without throwing) when `signal` aborts. */
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Told the interval in force after each poll (the dashboard shows it). */
  readonly onPoll?: (poll: DevicePoll, intervalS: number) => void;
}

/** Polls until the sign-in ends one way or another; `signal` cancels it. */
export async function runDeviceFlow(
  deps: DeviceLoopDeps,
  endpoints: DeviceFlowEndpoints,
  grant: DeviceGrant,
  signal: AbortSignal,
): Promise<DeviceResult> {
  let intervalS = grant.intervalS;
  const cancelled = { kind: "cancelled", message: "The sign-in was cancelled" } as const;
  while (true) {
    await deps.sleep(intervalS * 1000, signal);
    if (signal.aborted) return cancelled;
    if (deps.now() >= grant.expiresAt) {
      return { kind: "expired", message: "The code expired before it was approved; start again" };
    }
    let poll: DevicePoll;
    try {
      poll = await pollDeviceToken(deps.fetch, endpoints, grant, deps.now(), signal);
    } catch (error) {
      if (signal.aborted) return cancelled;
      // A network blip is not the end: wait one more interval, until the code itself expires.
      deps.onPoll?.(
        { kind: "failed", message: error instanceof Error ? error.message : String(error) },
        intervalS,
      );
      continue;
    }
    intervalS = nextIntervalS(intervalS, poll);
    deps.onPoll?.(poll, intervalS);
    if (poll.kind === "pending" || poll.kind === "slow_down") continue;
    return poll;
  }
}
