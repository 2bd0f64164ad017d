/**
 * Refresh of the Google Cloud Code kinds (installed-app OAuth: client id and secret from configuration)
 * and of the cloud assistant (Kiro: AWS OIDC with the credential's own registered client, or the social
 * sign-in's refresh endpoint). Both keep the credential's non-secret extras (project, region, profile).
 */
import {
  awsOidcTokenUrl,
  type CredentialBlob,
  mergeTokenResponse,
  type OAuthKindFacts,
} from "../../credentials/mod.ts";
import { kiroRegion } from "../cloud_assistant.ts";
import { extraString } from "../call_shape.ts";
import { oauth2Refresh, RefreshError, type RefreshStrategy } from "./refresh_strategies.ts";
import { oauthErrorCode, postToken, type TokenAnswer } from "./token_endpoint.ts";

/** Google: the standard refresh grant, with the installed app's secret the token endpoint requires. */
export const googleRefresh: RefreshStrategy = {
  refresh(blob, ctx) {
    if (ctx.facts.clientId === "" || !ctx.facts.clientSecret) {
      return Promise.reject(
        new RefreshError(
          `${ctx.facts.label}: set providers[].oauth.client_id and client_secret (Google's installed-app ` +
            "client) to refresh this credential",
          false,
        ),
      );
    }
    return oauth2Refresh.refresh(blob, ctx);
  },
};

/** The social sign-in's refresh host, whose region the credential cannot change. */
const KIRO_SOCIAL_URL = "https://prod.us-east-1.auth.desktop.kiro.dev/refreshToken";

/**
 * Kiro: with the OIDC client the credential was registered with (Builder ID, Identity Center), the OIDC
 * token endpoint of its region (camelCase JSON), or the provider's `oauth.device_token_url` when it names
 * another one (the endpoint the device sign-in polled); otherwise the social refresh endpoint. A returned
 * `profileArn` is kept beside the tokens.
 */
export const kiroRefresh: RefreshStrategy = {
  async refresh(blob, { facts, fetcher, nowS }) {
    if (blob.refreshToken === undefined) {
      throw new RefreshError(`${facts.label}: this credential has no refresh token; sign in again`, true);
    }
    const clientId = extraString(blob.extra, "clientId", "client_id");
    const clientSecret = extraString(blob.extra, "clientSecret", "client_secret");
    const overridden = facts.tokenUrl !== null && facts.tokenUrl !== KIRO_SOCIAL_URL;
    const oidc = clientId !== undefined && clientSecret !== undefined;
    const url = overridden ? facts.tokenUrl! : oidc ? oidcTokenUrl(facts, blob) : KIRO_SOCIAL_URL;
    const fields: Record<string, string> = oidc
      ? { clientId, clientSecret, refreshToken: blob.refreshToken, grantType: "refresh_token" }
      : { refreshToken: blob.refreshToken };
    let answer: TokenAnswer;
    try {
      answer = await postToken(fetcher, url, fields, "json", oidc ? {} : { "user-agent": "kiro-cli/1.0.0" });
    } catch (error) {
      throw new RefreshError(`${facts.label}: token refresh failed: ${(error as Error).message}`, false);
    }
    if (answer.status >= 200 && answer.status < 300 && answer.json !== null) {
      return withProfile(mergeOrFail(blob, answer.json, nowS(), facts.label), answer.json);
    }
    const code = oauthErrorCode(answer) ??
      (typeof answer.json?.error === "string" ? answer.json.error : undefined);
    const dead = answer.status === 400 || answer.status === 401 || code === "invalid_grant";
    throw new RefreshError(
      `${facts.label}: token refresh answered HTTP ${answer.status}${code ? ` (${code})` : ""}` +
        (dead ? "; the refresh token is no longer valid: sign in again" : ""),
      dead,
    );
  },
};

/** The credential region's OIDC token endpoint, unless the provider set `device_token_url` itself. */
function oidcTokenUrl(facts: OAuthKindFacts, blob: CredentialBlob): string {
  const configured = facts.device?.tokenUrl;
  const derived = awsOidcTokenUrl(facts.region ?? "us-east-1");
  return configured !== undefined && configured !== derived
    ? configured
    : awsOidcTokenUrl(kiroRegion(blob.extra));
}

function mergeOrFail(blob: CredentialBlob, json: Record<string, unknown>, nowS: number, label: string) {
  try {
    return mergeTokenResponse(blob, json, nowS);
  } catch (error) {
    throw new RefreshError(`${label}: ${(error as Error).message}`, false);
  }
}

function withProfile(blob: CredentialBlob, json: Record<string, unknown>): CredentialBlob {
  const profileArn = typeof json.profileArn === "string" ? json.profileArn : undefined;
  return profileArn === undefined ? blob : { ...blob, extra: { ...blob.extra, profileArn } };
}
