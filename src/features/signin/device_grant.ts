/**
 * What every device endpoint's answer turns into: a `DeviceGrant` whose links are safe to show, or the one
 * "could not start" error. RFC 8628 and AWS name their fields differently but mean the same things, so each
 * protocol reads its own names and hands the values here.
 */
import { GatewayError } from "../../model/mod.ts";
import type { DeviceGrant } from "./device_types.ts";
import { endpointName } from "./oauth_http.ts";

/** RFC 8628 §3.2: the interval when the server names none. */
export const DEFAULT_INTERVAL_S = 5;
/** Never poll faster than this, whatever a server says (a 0 would be a loop of requests). */
export const MIN_INTERVAL_S = 1;

/** The fields a device endpoint answered, under any protocol's names. */
export interface DeviceAnswerFields {
  readonly deviceCode: string;
  readonly userCode: string;
  readonly verificationUri: string;
  readonly verificationUriComplete?: string;
  readonly intervalS?: number;
  readonly expiresInS: number;
}

/**
 * The grant for a device endpoint's answer. The links are shown to the user as clickable, so a
 * verification link that is not http(s) ends the sign-in and a bad "complete" link is dropped.
 */
export function deviceGrant(fields: DeviceAnswerFields, nowMs: number): DeviceGrant {
  if (!isHttpUrl(fields.verificationUri)) {
    throw new GatewayError(
      502,
      "upstream",
      "The device sign-in could not start: the verification link is not an http(s) URL",
    );
  }
  const complete = fields.verificationUriComplete;
  return {
    deviceCode: fields.deviceCode,
    userCode: fields.userCode,
    verificationUri: fields.verificationUri,
    ...(complete && isHttpUrl(complete) ? { verificationUriComplete: complete } : {}),
    intervalS: Math.max(MIN_INTERVAL_S, Math.ceil(fields.intervalS ?? DEFAULT_INTERVAL_S)),
    expiresAt: nowMs + Math.max(1, fields.expiresInS) * 1000,
  };
}

/** The error for a device endpoint that did not give a code; `why` is what it answered instead. */
export function couldNotStart(url: string, why: string): GatewayError {
  return new GatewayError(
    502,
    "upstream",
    `The device sign-in could not start: ${endpointName(url)} answered ${why}`,
  );
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}
