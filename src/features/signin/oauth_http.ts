/**
 * The sign-in flows' one door to OAuth servers: a form or JSON POST with a deadline, answered as a status
 * and a parsed JSON object. Nothing here logs; callers decide what of an answer may be shown.
 */

/** How long one call to an OAuth endpoint may take before the flow reports it as unreachable. */
export const OAUTH_CALL_TIMEOUT_MS = 20_000;

/** An OAuth server's answer: its HTTP status and its JSON body (an empty object when it sent none). */
export interface OAuthAnswer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/** How a request body is encoded: RFC 6749 says form; some providers take JSON. */
export type BodyEncoding = "form" | "json";

/** The fetch the flows use (injected: the composition root passes the global one, tests a mock's). */
export type OAuthFetch = (input: string, init: RequestInit) => Promise<Response>;

/** Thrown when an OAuth endpoint cannot be reached or answers something that is not JSON. */
export class OAuthCallError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OAuthCallError";
  }
}

/** A request body: strings, and lists (JSON arrays; in a form they are joined with spaces, like `scope`). */
export type OAuthFields = Readonly<Record<string, string | readonly string[]>>;

/** POSTs `fields` to `url` and reads the JSON answer; `headers` adds to the defaults (client authentication). */
export async function postOAuth(
  fetcher: OAuthFetch,
  url: string,
  fields: OAuthFields,
  encoding: BodyEncoding,
  signal?: AbortSignal,
  headers?: Readonly<Record<string, string>>,
): Promise<OAuthAnswer> {
  const timeout = AbortSignal.timeout(OAUTH_CALL_TIMEOUT_MS);
  const body = encoding === "form"
    ? new URLSearchParams(
      Object.entries(fields).map(([k, v]): [string, string] => [k, typeof v === "string" ? v : v.join(" ")]),
    ).toString()
    : JSON.stringify(fields);
  let response: Response;
  try {
    response = await fetcher(url, {
      method: "POST",
      headers: {
        accept: "application/json",
        "content-type": encoding === "form" ? "application/x-www-form-urlencoded" : "application/json",
        ...headers,
      },
      body,
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    const why = timeout.aborted ? "timed out" : error instanceof Error ? error.message : String(error);
    throw new OAuthCallError(`${endpointName(url)} could not be reached: ${why}`);
  }
  const text = await response.text();
  if (text.trim() === "") return { status: response.status, body: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Some servers (GitHub without Accept) answer form-encoded; read that rather than failing.
    if (/^[\w.-]+=/.test(text)) {
      return { status: response.status, body: Object.fromEntries(new URLSearchParams(text)) };
    }
    throw new OAuthCallError(
      `${endpointName(url)} answered HTTP ${response.status} with a body that is not JSON`,
    );
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new OAuthCallError(
      `${endpointName(url)} answered HTTP ${response.status} with JSON that is not an object`,
    );
  }
  return { status: response.status, body: parsed as Record<string, unknown> };
}

/** The endpoint as messages name it: origin and path, never a query string. */
export function endpointName(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return "the OAuth endpoint";
  }
}

/** A string field of an answer, or undefined. */
export function stringField(body: Record<string, unknown>, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = body[name];
    if (typeof value === "string" && value !== "") return value;
  }
  return undefined;
}

/** A numeric field of an answer (numbers sent as strings too), or undefined. */
export function numberField(body: Record<string, unknown>, ...names: string[]): number | undefined {
  for (const name of names) {
    const value = body[name];
    const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
    if (typeof number === "number" && Number.isFinite(number)) return number;
  }
  return undefined;
}

/**
 * The OAuth error of an answer as a short sentence (`error` plus its description, cut short), or undefined
 * when the answer carries none. Error text from the server never contains our secrets: the codes and
 * verifiers we send are not echoed in RFC 6749 error bodies, and it is cut to one line anyway.
 */
export function oauthError(body: Record<string, unknown>): { code: string; text: string } | undefined {
  const raw = body.error;
  const nested = typeof raw === "object" && raw !== null ? raw as Record<string, unknown> : undefined;
  const code = typeof raw === "string" ? raw : nested ? stringField(nested, "code", "type") : undefined;
  if (!code) return undefined;
  const description = stringField(body, "error_description") ??
    (nested ? stringField(nested, "message") : undefined);
  const text = description ? `${code}: ${description.replace(/\s+/g, " ").slice(0, 200)}` : code;
  return { code, text };
}
