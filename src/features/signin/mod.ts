/**
 * Subscription sign-in: the device-code and PKCE flows and the server-side sessions that run them. The
 * dashboard routes and `gateway providers connect` both drive a SigninService; a finished sign-in is saved
 * through the management service as the provider's credential blob.
 */
export { type SigninDeps, SigninService } from "./service.ts";
export type { SigninApi, SigninStatus, SigninView } from "./contract.ts";
export { flowsOffered, providerSigninFacts, type SigninFacts, type SigninFlow } from "./plan.ts";
export type { SignedInCredential } from "./token_answer.ts";
export type { OAuthFetch } from "./oauth_http.ts";
