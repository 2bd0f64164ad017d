import type { SigninRecord } from "../../storage/mod.ts";
import type { SigninFlow } from "./plan.ts";

/** Where a sign-in stands. */
export type SigninStatus = "pending" | "succeeded" | "failed" | "cancelled" | "expired";

/** A sign-in as the dashboard and the CLI see it: what the user needs, and no secret. */
export interface SigninView {
  readonly id: string;
  readonly provider_id: string;
  readonly flow: SigninFlow;
  readonly status: SigninStatus;
  /** Why it failed, or what happened last (e.g. the server asked to slow down). */
  readonly message?: string;
  /** When the code or the attempt stops being valid (ISO 8601). */
  readonly expires_at: string;
  readonly device?: {
    readonly user_code: string;
    readonly verification_uri: string;
    readonly verification_uri_complete?: string;
    /** The server's polling interval in force (grows after `slow_down`). */
    readonly interval_s: number;
  };
  readonly pkce?: { readonly authorize_url: string; readonly redirect_uri: string };
}

/**
 * The view of a stored sign-in: what the user needs, no secret (the record carries none). One being
 * completed (its credential being fetched or saved) is still pending to the user.
 */
export function signinView(record: SigninRecord): SigninView {
  const base = {
    id: record.id,
    provider_id: record.providerId,
    flow: record.flow,
    status: record.status === "completing" ? "pending" as const : record.status,
    ...(record.message ? { message: record.message } : {}),
    expires_at: new Date(record.expiresAt).toISOString(),
  };
  if (record.device) {
    const d = record.device;
    return {
      ...base,
      device: {
        user_code: d.userCode,
        verification_uri: d.verificationUri,
        ...(d.verificationUriComplete ? { verification_uri_complete: d.verificationUriComplete } : {}),
        interval_s: d.intervalS,
      },
    };
  }
  if (record.pkce) {
    return {
      ...base,
      pkce: { authorize_url: record.pkce.authorizeUrl, redirect_uri: record.pkce.redirectUri },
    };
  }
  return base;
}
