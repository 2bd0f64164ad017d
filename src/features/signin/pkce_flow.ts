/**
 * Authorization code with PKCE (RFC 7636, S256) for servers that only redirect to a registered localhost
 * address: the user opens the authorize URL in any browser, and pastes back where it sent them (the full
 * redirect URL, a `code#state` pair, or the bare code). That works for a gateway on a remote host too.
 */
import { GatewayError, invalidRequest } from "../../model/mod.ts";
import { type BodyEncoding, endpointName, type OAuthFetch, postOAuth } from "./oauth_http.ts";
import { base64Url } from "./base64url.ts";
import { readTokenAnswer, type SignedInCredential } from "./token_answer.ts";

/** Where and as whom one PKCE sign-in talks. */
export interface PkceFlowEndpoints {
  readonly authorizeUrl: string;
  readonly tokenUrl: string;
  readonly clientId: string;
  /** Installed-app secret Google's token endpoint requires in the exchange (configuration only). */
  readonly clientSecret?: string;
  readonly scope: string;
  /** The registered redirect; the browser lands there (often nothing listens) and the user copies it. */
  readonly redirectUri: string;
  readonly encoding: BodyEncoding;
  /** Provider-specific authorize parameters (e.g. Claude's `code=true`). */
  readonly authorizeParams?: Readonly<Record<string, string>>;
  /** Claude's token endpoint wants the state in the exchange too. */
  readonly stateInExchange?: boolean;
}

/** The per-sign-in secrets: the verifier stays on the server; the state ties the answer to this sign-in. */
export interface PkcePair {
  readonly verifier: string;
  readonly challenge: string;
  readonly state: string;
}

/** Makes a fresh verifier (32 random bytes → 43 characters), its S256 challenge and a state. */
export async function createPkcePair(random: (bytes: number) => Uint8Array): Promise<PkcePair> {
  const verifier = base64Url(random(32));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  return { verifier, challenge: base64Url(digest), state: base64Url(random(24)) };
}

/** The provider page the user opens. */
export function authorizeUrl(endpoints: PkceFlowEndpoints, pair: PkcePair): string {
  const url = new URL(endpoints.authorizeUrl);
  const params: Record<string, string> = {
    ...endpoints.authorizeParams,
    response_type: "code",
    client_id: endpoints.clientId,
    redirect_uri: endpoints.redirectUri,
    scope: endpoints.scope,
    code_challenge: pair.challenge,
    code_challenge_method: "S256",
    state: pair.state,
  };
  for (const [name, value] of Object.entries(params)) if (value !== "") url.searchParams.set(name, value);
  return url.toString();
}

/**
 * Reads what the user pasted: a redirect URL (`?code=…&state=…`, or `?error=…`), `code#state`, or a bare
 * code. A state that is present must be this sign-in's; a bare code carries none to check.
 */
export function readPastedRedirect(pasted: string, expectedState: string): string {
  const text = pasted.trim();
  if (text === "") throw invalidRequest("redirect_url: is required (paste the address the browser ended on)");
  if (text.length > 8192) throw invalidRequest("redirect_url: is too long");
  let code: string | undefined;
  let state: string | undefined;
  if (/^https?:\/\//i.test(text)) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw invalidRequest("redirect_url: is not a valid URL");
    }
    // Some providers put the answer in the fragment instead of the query.
    const fragment = new URLSearchParams(url.hash.replace(/^#/, ""));
    const read = (name: string) => url.searchParams.get(name) ?? fragment.get(name) ?? undefined;
    const error = read("error");
    if (error) {
      const description = read("error_description");
      throw new GatewayError(
        400,
        "invalid_request",
        `The provider refused the sign-in: ${error}${description ? ` (${description.slice(0, 200)})` : ""}`,
      );
    }
    code = read("code");
    state = read("state");
    if (!code) throw invalidRequest("redirect_url: has no code parameter (paste the whole address bar)");
  } else if (/\s/.test(text)) {
    throw invalidRequest("redirect_url: is neither a URL nor a code");
  } else {
    const hash = text.indexOf("#");
    code = hash >= 0 ? text.slice(0, hash) : text;
    state = hash >= 0 ? text.slice(hash + 1) : undefined;
    if (code === "") throw invalidRequest("redirect_url: the code before '#' is empty");
  }
  if (state !== undefined && !timingSafeEqual(state, expectedState)) {
    throw invalidRequest(
      "redirect_url: its state does not match this sign-in (it belongs to another attempt; start again)",
    );
  }
  return code;
}

/** Trades the code for tokens, proving possession of the verifier. */
export async function exchangeCode(
  fetcher: OAuthFetch,
  endpoints: PkceFlowEndpoints,
  code: string,
  pair: Pick<PkcePair, "verifier" | "state">,
  nowMs: number,
): Promise<SignedInCredential> {
  const fields: Record<string, string> = {
    grant_type: "authorization_code",
    client_id: endpoints.clientId,
    code,
    redirect_uri: endpoints.redirectUri,
    code_verifier: pair.verifier,
  };
  if (endpoints.stateInExchange) fields.state = pair.state;
  if (endpoints.clientSecret) fields.client_secret = endpoints.clientSecret;
  const answer = await postOAuth(fetcher, endpoints.tokenUrl, fields, endpoints.encoding);
  const outcome = readTokenAnswer(answer, nowMs);
  if (!outcome.ok) {
    throw new GatewayError(
      502,
      "upstream",
      `The code exchange at ${endpointName(endpoints.tokenUrl)} failed: ${outcome.message}`,
    );
  }
  return outcome.credential;
}

function timingSafeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
