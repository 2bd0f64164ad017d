/** Calls to OAuth control-plane endpoints (token refresh, session exchange): small JSON answers, short deadlines. */

/** How long a token endpoint may take before the refresh counts as failed. */
export const TOKEN_TIMEOUT_MS = 30_000;

/** A token endpoint's answer: its status, its JSON (or null), and its text for messages. */
export interface TokenAnswer {
  readonly status: number;
  readonly json: Record<string, unknown> | null;
  readonly text: string;
  readonly header: (name: string) => string | null;
}

/** POSTs `fields` as JSON or as a form, as the endpoint wants. */
export async function postToken(
  fetcher: typeof fetch,
  url: string,
  fields: Record<string, string>,
  encoding: "json" | "form",
  headers: Record<string, string> = {},
): Promise<TokenAnswer> {
  const body = encoding === "json" ? JSON.stringify(fields) : new URLSearchParams(fields).toString();
  const response = await fetcher(url, {
    method: "POST",
    headers: {
      accept: "application/json",
      "content-type": encoding === "json" ? "application/json" : "application/x-www-form-urlencoded",
      ...headers,
    },
    body,
    redirect: "error",
    signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS),
  });
  return answer(response);
}

/** GETs a JSON resource with the given headers (Copilot session exchange, usage and model lists). */
export async function getJson(
  fetcher: typeof fetch,
  url: string,
  headers: Record<string, string>,
): Promise<TokenAnswer> {
  const response = await fetcher(url, {
    headers: { accept: "application/json", ...headers },
    redirect: "error",
    signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS),
  });
  return answer(response);
}

async function answer(response: Response): Promise<TokenAnswer> {
  const text = await response.text();
  let json: Record<string, unknown> | null = null;
  try {
    const value = JSON.parse(text);
    if (value !== null && typeof value === "object" && !Array.isArray(value)) json = value;
  } catch { /* not JSON: the text is reported */ }
  return { status: response.status, json, text, header: (name) => response.headers.get(name) };
}

/** The OAuth error code of an answer (`error` as a string, or `error.code` / `error.type`). */
export function oauthErrorCode(answer: TokenAnswer): string | undefined {
  const error = answer.json?.error;
  if (typeof error === "string") return error;
  if (error !== null && typeof error === "object") {
    const record = error as Record<string, unknown>;
    for (const key of ["code", "type"]) if (typeof record[key] === "string") return record[key] as string;
  }
  return undefined;
}
