/**
 * Which sign-in a provider kind uses, and with which endpoints: read from the kind's OAuth facts (the
 * credential core's table with the provider's overrides applied), so every URL stays the provider's to set.
 */
import type { ProviderConfig } from "../../config/mod.ts";
import type { DeviceFlowEndpoints } from "./device_flow.ts";
import { type OAuthKindFacts, resolveOAuthKind } from "../../credentials/mod.ts";
import type { PkceFlowEndpoints } from "./pkce_flow.ts";

/** The part of a kind's OAuth facts (the credential core's table) the sign-in flows read. */
export type SigninFacts = Pick<
  OAuthKindFacts,
  "label" | "clientId" | "clientSecret" | "tokenUrl" | "tokenBody" | "authorize" | "device" | "region"
>;

/** The two ways to sign in. */
export type SigninFlow = "device" | "pkce";

/** One provider's sign-in, ready to run. */
export type SigninPlan =
  | { readonly flow: "device"; readonly label: string; readonly endpoints: DeviceFlowEndpoints }
  | { readonly flow: "pkce"; readonly label: string; readonly endpoints: PkceFlowEndpoints };

/**
 * The flows a kind offers, the preferred one first: an RFC 8628 device code needs no pasting, so it leads;
 * Codex's browser sign-in leads its own device sign-in, which the account must first allow in its settings.
 */
export function flowsOffered(facts: SigninFacts): SigninFlow[] {
  const flows: SigninFlow[] = [];
  // AWS registers its own client per sign-in, so its device flow needs no client id from the table.
  if (facts.device?.protocol === "rfc8628" || facts.device?.protocol === "aws_oidc") flows.push("device");
  if (facts.authorize && facts.tokenUrl) flows.push("pkce");
  if (facts.device?.protocol === "openai_deviceauth" && facts.tokenUrl && facts.device.redirectUri) {
    flows.push("device");
  }
  return flows;
}

/** The plan for `flow` (or the kind's preferred flow), or a sentence saying why there is none. */
export function signinPlan(facts: SigninFacts, flow?: SigninFlow): SigninPlan | string {
  const offered = flowsOffered(facts);
  const chosen = flow ?? offered[0];
  if (chosen === undefined || !offered.includes(chosen)) {
    return offered.length === 0
      ? `${facts.label} has no sign-in flow in this build; paste a credential as the API key instead`
      : `${facts.label} signs in with ${offered.join(" or ")}, not ${chosen}`;
  }
  if (chosen === "device") {
    const device = facts.device!;
    return {
      flow: "device",
      label: facts.label,
      endpoints: {
        protocol: device.protocol,
        deviceUrl: device.codeUrl,
        tokenUrl: device.tokenUrl,
        clientId: facts.clientId,
        scope: device.scopes ?? "",
        // GitHub reads form bodies; RFC 8628 says form too (OpenAI's device endpoints take JSON themselves).
        // AWS SSO-OIDC speaks camelCase JSON only.
        encoding: device.protocol === "aws_oidc" ? "json" : "form",
        verificationUri: device.verificationUrl,
        ...(device.protocol === "aws_oidc"
          ? {
            registerUrl: device.registerUrl!,
            startUrl: device.startUrl!,
            region: facts.region ?? "us-east-1",
          }
          : {}),
        ...(device.protocol === "openai_deviceauth"
          ? {
            exchangeUrl: facts.tokenUrl!,
            exchangeEncoding: facts.tokenBody,
            redirectUri: device.redirectUri,
          }
          : {}),
      },
    };
  }
  const authorize = facts.authorize!;
  // Google's kinds ship no client: the configuration names it (providers[].oauth.client_id, client_secret).
  if (facts.clientId === "") {
    return `${facts.label} needs providers[].oauth.client_id and client_secret (the installed-app client) to sign in`;
  }
  return {
    flow: "pkce",
    label: facts.label,
    endpoints: {
      authorizeUrl: authorize.url,
      tokenUrl: facts.tokenUrl!,
      clientId: facts.clientId,
      ...(facts.clientSecret ? { clientSecret: facts.clientSecret } : {}),
      scope: authorize.scopes,
      redirectUri: authorize.redirectUri,
      encoding: facts.tokenBody,
      authorizeParams: authorize.params,
      // A JSON token endpoint (Claude's) wants the state echoed in the exchange.
      stateInExchange: facts.tokenBody === "json",
    },
  };
}

/** A provider's sign-in facts: its kind's OAuth table entry with the provider's `oauth` overrides. */
export function providerSigninFacts(provider: ProviderConfig): SigninFacts | null {
  return resolveOAuthKind(provider.apiType, provider.oauth);
}
