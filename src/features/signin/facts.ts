import type { ProviderConfig } from "../../config/mod.ts";
import { resolveOAuthKind } from "../../credentials/mod.ts";
import type { SigninFacts } from "./plan.ts";

/** A provider's sign-in facts: its kind's OAuth table entry with the provider's `oauth` overrides. */
export function providerSigninFacts(provider: ProviderConfig): SigninFacts | null {
  return resolveOAuthKind(provider.apiType, provider.oauth);
}
