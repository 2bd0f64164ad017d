/** Subscription credentials, pure part: the stored blob, the per-kind OAuth facts, token claims. */
export {
  type CredentialBlob,
  CredentialFormatError,
  credentialSecrets,
  isCredentialJson,
  mergeTokenResponse,
  parseCredential,
  secretsOf,
  serializeCredential,
} from "./blob.ts";
export {
  awsOidcTokenUrl,
  BUILDER_ID_START_URL,
  OAUTH_KINDS,
  oauthKind,
  type OAuthKindFacts,
  type OAuthOverrides,
  resolveOAuthKind,
} from "./kinds.ts";
export { type ChatGptAccount, chatGptAccount, jwtClaims } from "./jwt_claims.ts";
export { accountLabel, type CredentialStatus, credentialStatus } from "./status.ts";
