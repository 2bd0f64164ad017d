import type { DeviceGrant } from "./device_flow.ts";
import type { PkcePair } from "./pkce_flow.ts";
import type { SigninFlow, SigninPlan } from "./plan.ts";

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

/** One sign-in's server-side state, secrets included (never sent anywhere as is). */
export interface Session {
  readonly id: string;
  readonly owner: string;
  readonly providerId: string;
  readonly plan: SigninPlan;
  readonly expiresAt: number;
  readonly abort: AbortController;
  status: SigninStatus;
  message?: string;
  finishedAt?: number;
  grant?: DeviceGrant;
  intervalS?: number;
  pkce?: { pair: PkcePair; url: string; exchanging: boolean };
  done?: Promise<void>;
}

/** The view of a session: what the user needs, no secret. */
export function sessionView(session: Session): SigninView {
  const base = {
    id: session.id,
    provider_id: session.providerId,
    flow: session.plan.flow,
    status: session.status,
    ...(session.message ? { message: session.message } : {}),
    expires_at: new Date(session.expiresAt).toISOString(),
  };
  if (session.grant) {
    const g = session.grant;
    return {
      ...base,
      device: {
        user_code: g.userCode,
        verification_uri: g.verificationUri,
        ...(g.verificationUriComplete ? { verification_uri_complete: g.verificationUriComplete } : {}),
        interval_s: session.intervalS ?? g.intervalS,
      },
    };
  }
  if (session.pkce && session.plan.flow === "pkce") {
    return {
      ...base,
      pkce: { authorize_url: session.pkce.url, redirect_uri: session.plan.endpoints.redirectUri },
    };
  }
  return base;
}
