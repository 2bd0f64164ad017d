/** Sign-in contract: what the dashboard sees of a sign-in, and the Connect routes. */
import type { Route } from "../../dashboard/contract/api.ts";
import type { SigninFlow } from "./plan.ts";

export type { SigninFlow };

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

/** The Connect routes (a sign-in belongs to the dashboard session that started it). */
export interface SigninApi {
  readonly "POST /providers/:id/connect": Route<{ readonly flow?: SigninFlow }, SigninView>;
  readonly "GET /providers/:id/connect/:signin": Route<undefined, SigninView>;
  readonly "POST /providers/:id/connect/:signin/redirect": Route<
    { readonly redirect_url: string },
    SigninView
  >;
  readonly "DELETE /providers/:id/connect/:signin": Route<undefined, SigninView>;
}
