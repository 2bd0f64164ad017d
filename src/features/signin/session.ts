import type { SigninRecord } from "../../storage/mod.ts";
import type { SigninView } from "./contract.ts";

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
