/** Reads the claims of a JWT without verifying it: the gateway only labels accounts with them. */

/** The payload of a JWT, or an empty object when the token is not one. */
export function jwtClaims(token: string | undefined): Record<string, unknown> {
  const part = token?.split(".")[1];
  if (!part) return {};
  try {
    const base64 = part.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(part.length / 4) * 4, "=");
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const value = JSON.parse(new TextDecoder().decode(bytes));
    return value !== null && typeof value === "object" && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

/** The OpenAI auth claim namespace carrying the ChatGPT account id and plan. */
const OPENAI_AUTH_CLAIM = "https://api.openai.com/auth";
const OPENAI_PROFILE_CLAIM = "https://api.openai.com/profile";

/** What the ChatGPT tokens say about their account. */
export interface ChatGptAccount {
  readonly accountId?: string;
  readonly plan?: string;
  readonly email?: string;
}

/** Account id, plan and email from the id token's claims, falling back to the access token's. */
export function chatGptAccount(idToken: string | undefined, accessToken: string): ChatGptAccount {
  for (const token of [idToken, accessToken]) {
    const claims = jwtClaims(token);
    const auth = (claims[OPENAI_AUTH_CLAIM] ?? {}) as Record<string, unknown>;
    const profile = (claims[OPENAI_PROFILE_CLAIM] ?? {}) as Record<string, unknown>;
    const accountId = typeof auth.chatgpt_account_id === "string" ? auth.chatgpt_account_id : undefined;
    if (accountId === undefined) continue;
    const email = typeof claims.email === "string"
      ? claims.email
      : typeof profile.email === "string"
      ? profile.email
      : undefined;
    const plan = typeof auth.chatgpt_plan_type === "string" ? auth.chatgpt_plan_type : undefined;
    return { accountId, ...(plan ? { plan } : {}), ...(email ? { email } : {}) };
  }
  return {};
}
