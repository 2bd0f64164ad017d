/** The shapes one device sign-in passes between its protocol modules (RFC 8628 and OpenAI's). */
import type { BodyEncoding } from "./oauth_http.ts";
import type { SignedInCredential } from "./token_answer.ts";

/** Where and as whom one device sign-in talks. */
export interface DeviceFlowEndpoints {
  /** RFC 8628 (GitHub), or OpenAI's device-auth protocol (Codex). */
  readonly protocol: "rfc8628" | "openai_deviceauth";
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
}

/** One poll's meaning. */
export type DevicePoll =
  | { readonly kind: "pending" }
  | { readonly kind: "slow_down"; readonly intervalS?: number }
  | { readonly kind: "done"; readonly credential: SignedInCredential }
  | { readonly kind: "denied" | "expired" | "failed"; readonly message: string };
