/** Subscription upstreams: credential refresh and rotation, Copilot sessions, per-kind call shapes. */
export {
  CredentialManager,
  type CredentialManagerDeps,
  type CredentialTarget,
} from "./credential_manager.ts";
export { oauth2Refresh, RefreshError, type RefreshStrategy } from "./refresh_strategies.ts";
export { REFRESH_STRATEGIES } from "./refresh_registry.ts";
export {
  type CallShape,
  codexAccountId,
  isSubscriptionKind,
  type SubscriptionCall,
  Subscriptions,
} from "./subscriptions.ts";
export { collectResponsesSse } from "./responses_collect.ts";
export { copilotBase, copilotHeaders, type CopilotModel } from "./copilot_models.ts";
