/** Subscription upstreams: credential refresh and rotation, Copilot sessions, per-kind call shapes. */
export {
  CredentialManager,
  type CredentialManagerDeps,
  type CredentialTarget,
} from "./credential_manager.ts";
export { UNSAVED_PROVIDER_ID } from "./unsaved_credential.ts";
export { oauth2Refresh, RefreshError, type RefreshStrategy } from "./refresh_strategies.ts";
export { REFRESH_STRATEGIES } from "./refresh_registry.ts";
export { hasStoredCredential, isSubscriptionKind, Subscriptions } from "./subscriptions.ts";
export { type CallShape, codexAccountId, type SubscriptionCall } from "./subscription_call.ts";
export { cloudCodeQuotaUrl, readCloudCodeModels } from "./cloud_code_quota.ts";
export { collectResponsesSse } from "./responses_collect.ts";
export { copilotBase, copilotHeaders, type CopilotModel } from "./copilot_models.ts";
