/** The shapes one device sign-in passes between its protocol modules (RFC 8628, OpenAI's and AWS's). */
import type { BodyEncoding } from "./oauth_http.ts";
import type { SignedInCredential } from "./token_answer.ts";

/** Where and as whom one device sign-in talks. */
export interface DeviceFlowEndpoints {
  /** RFC 8628 (GitHub), OpenAI's device-auth protocol (Codex), or AWS SSO-OIDC (Kiro). */
  readonly protocol: "rfc8628" | "openai_deviceauth" | "aws_oidc";
  readonly deviceUrl: string;
  readonly tokenUrl: string;
  readonly clientId: string;
  readonly scope: string;
  readonly encoding: BodyEncoding;
  /** Where the user enters the code, for servers that do not say (OpenAI). */
  readonly verificationUri?: string;
  /** OpenAI: the code the poll returns is exchanged here, on this redirect URI. */
  readonly exchangeUrl?: string;
  readonly exchangeEncoding?: BodyEncoding;
  readonly redirectUri?: string;
  /** AWS: where the client is registered before the device code is asked for. */
  readonly registerUrl?: string;
  /** AWS: the sign-in portal the registration and the device code name (Builder ID or Identity Center). */
  readonly startUrl?: string;
  /** AWS: stored with the credential; refresh and inference hosts follow it. */
  readonly region?: string;
}

/** What the device endpoint granted: the code the user types and where, and how often to poll. */
export interface DeviceGrant {
  /** Secret to the flow: it is what the poll trades for a token, so it never leaves the server. */
  readonly deviceCode: string;
  readonly userCode: string;
  readonly verificationUri: string;
  readonly verificationUriComplete?: string;
  readonly intervalS: number;
  /** Epoch ms after which the code is dead. */
  readonly expiresAt: number;
  /**
   * AWS: the client registered for this sign-in. Its secret polls the token endpoint and later refreshes
   * the tokens, so it stays on the server and is stored only inside the sealed credential.
   */
  readonly client?: { readonly clientId: string; readonly clientSecret: string };
}

/** One poll's meaning. */
export type DevicePoll =
  | { readonly kind: "pending" }
  | { readonly kind: "slow_down"; readonly intervalS?: number }
  | { readonly kind: "done"; readonly credential: SignedInCredential }
  | { readonly kind: "denied" | "expired" | "failed"; readonly message: string };

/**
 * The meaning of a token endpoint's error code during a device sign-in (RFC 8628 §3.5 names; AWS sends the
 * same ones). `intervalS` is the interval a `slow_down` names, when it names one.
 */
export function pollForError(code: string, message: string, intervalS?: number): DevicePoll {
  switch (code) {
    case "authorization_pending":
      return { kind: "pending" };
    case "slow_down":
      return intervalS === undefined ? { kind: "slow_down" } : { kind: "slow_down", intervalS };
    case "access_denied":
      return { kind: "denied", message: "The sign-in was denied on the provider's page" };
    case "expired_token":
      return { kind: "expired", message: "The code expired before it was approved; start again" };
    default:
      return { kind: "failed", message: `The token endpoint refused the sign-in: ${message}` };
  }
}
