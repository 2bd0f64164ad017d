import { endpointName, OAUTH_CALL_TIMEOUT_MS, type OAuthFetch } from "../features/signin/oauth_http.ts";
import { SsoError } from "./sso_error.ts";

/** Documents and key sets larger than this are not what a provider serves: refused rather than buffered. */
const MAX_DOCUMENT_BYTES = 1024 * 1024;

/**
 * GETs a JSON object from the provider (discovery, keys, userinfo) with a deadline. Failures are
 * `provider_unusable` errors naming the endpoint (origin and path, never a query) and what to check.
 */
export async function fetchJsonObject(
  fetcher: OAuthFetch,
  url: string,
  what: string,
  headers: Readonly<Record<string, string>> = {},
): Promise<Record<string, unknown>> {
  const where = endpointName(url);
  let response: Response;
  try {
    response = await fetcher(url, {
      method: "GET",
      headers: { accept: "application/json", ...headers },
      redirect: "error",
      signal: AbortSignal.timeout(OAUTH_CALL_TIMEOUT_MS),
    });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new SsoError("provider_unusable", `The ${what} at ${where} could not be fetched: ${why}`);
  }
  const text = await response.text();
  if (!response.ok) {
    throw new SsoError("provider_unusable", `The ${what} at ${where} answered HTTP ${response.status}`);
  }
  if (text.length > MAX_DOCUMENT_BYTES) {
    throw new SsoError("provider_unusable", `The ${what} at ${where} is larger than 1 MiB`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new SsoError("provider_unusable", `The ${what} at ${where} is not JSON`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new SsoError("provider_unusable", `The ${what} at ${where} is not a JSON object`);
  }
  return parsed as Record<string, unknown>;
}
