/**
 * The back-channel half of the code flow: the code and PKCE verifier traded for tokens at the token endpoint
 * (client authenticated as discovery allows), and the userinfo endpoint for claims the ID token left out.
 */
import {
  endpointName,
  OAuthCallError,
  oauthError,
  type OAuthFetch,
  type OAuthFields,
  postOAuth,
  stringField,
} from "../features/signin/oauth_http.ts";
import type { TokenAuthMethod } from "./discovery.ts";
import { fetchJsonObject } from "./fetch_json.ts";
import { SsoError } from "./sso_error.ts";

/** The client as the token endpoint knows it. */
export interface ClientCredentials {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly method: TokenAuthMethod;
}

/** The tokens a sign-in uses: the ID token always, the access token for userinfo when the provider sent one. */
export interface SignInTokens {
  readonly idToken: string;
  readonly accessToken: string | undefined;
}

/** RFC 6749 §2.3.1: the id and secret are form-encoded before they are joined and base64-encoded. */
function basicAuthorization(clientId: string, clientSecret: string): string {
  const encode = (text: string) => new URLSearchParams({ v: text }).toString().slice(2);
  const pair = new TextEncoder().encode(`${encode(clientId)}:${encode(clientSecret)}`);
  return `Basic ${btoa(String.fromCharCode(...pair))}`;
}

/** Trades an authorization code (with its PKCE verifier and the redirect URI it was issued for) for tokens. */
export async function exchangeCode(
  fetcher: OAuthFetch,
  tokenEndpoint: string,
  client: ClientCredentials,
  grant: { readonly code: string; readonly verifier: string; readonly redirectUri: string },
): Promise<SignInTokens> {
  const fields: Record<string, string> = {
    grant_type: "authorization_code",
    code: grant.code,
    redirect_uri: grant.redirectUri,
    code_verifier: grant.verifier,
  };
  let headers: Record<string, string> | undefined;
  if (client.method === "client_secret_basic") {
    headers = { authorization: basicAuthorization(client.clientId, client.clientSecret) };
  } else {
    fields.client_id = client.clientId;
    fields.client_secret = client.clientSecret;
  }
  let answer;
  try {
    answer = await postOAuth(fetcher, tokenEndpoint, fields as OAuthFields, "form", undefined, headers);
  } catch (error) {
    if (error instanceof OAuthCallError) throw new SsoError("token_exchange", error.message);
    throw error;
  }
  const where = endpointName(tokenEndpoint);
  const failed = oauthError(answer.body);
  if (answer.status !== 200 || failed !== undefined) {
    const hint = failed?.code === "invalid_client"
      ? " (check sso.client_id and sso.client_secret)"
      : failed?.code === "invalid_grant"
      ? " (the code was used already or expired; start again)"
      : "";
    throw new SsoError(
      "token_exchange",
      `The token endpoint ${where} refused the sign-in: ${failed?.text ?? `HTTP ${answer.status}`}${hint}`,
    );
  }
  const idToken = stringField(answer.body, "id_token");
  if (idToken === undefined) {
    throw new SsoError(
      "token_exchange",
      `The token endpoint ${where} sent no id_token: is the client an OpenID Connect client with the openid scope?`,
    );
  }
  return { idToken, accessToken: stringField(answer.body, "access_token") };
}

/** Reads the userinfo endpoint's claims with the access token; they must be about the ID token's subject. */
export async function fetchUserinfo(
  fetcher: OAuthFetch,
  userinfoEndpoint: string,
  accessToken: string,
  subject: string,
): Promise<Record<string, unknown>> {
  const claims = await fetchJsonObject(fetcher, userinfoEndpoint, "userinfo endpoint", {
    authorization: `Bearer ${accessToken}`,
  });
  // Core §5.3.2: claims about someone else must not be merged (a token substitution).
  if (claims.sub !== subject) {
    throw new SsoError("id_token", "The userinfo endpoint answered for another subject than the ID token's");
  }
  return claims;
}
