/** The dashboard API client: typed state reads and typed calls of every route, with errors for forms. */
import type {
  AnswerOf,
  ApiErrorBody,
  ApiRoute,
  BodyOf,
  ParamsOf,
  StateEnvelope,
  StateSection,
} from "../../../src/dashboard/contract/mod.ts";

/** A failed call: a message for a banner plus per-field messages for forms. */
export interface ApiFailure {
  readonly ok: false;
  readonly status: number;
  readonly message: string;
  readonly fields: Record<string, string>;
}

/** A successful call. */
export interface ApiSuccess<T> {
  readonly ok: true;
  readonly status: number;
  readonly data: T;
}

/** Outcome of a call; never throws for HTTP errors. */
export type ApiResult<T> = ApiSuccess<T> | ApiFailure;

/** Base of the management API. */
export const API_BASE = "/dashboard/api";

/** Sends the browser to sign-in, returning here afterwards. */
export function redirectToLogin(): void {
  const next = location.pathname + location.search;
  location.assign(`/dashboard/login?next=${encodeURIComponent(next)}`);
}

/** Reads a screen's state section; its `data` has the contract's type for that section. */
export function getState<S extends StateSection>(
  section: S,
  params?: Record<string, string | number>,
  signal?: AbortSignal,
): Promise<ApiResult<StateEnvelope<S>>> {
  const query = params
    ? "?" + new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString()
    : "";
  return request<StateEnvelope<S>>("GET", `${API_BASE}/v2/state/${section}${query}`, undefined, signal);
}

/** What a call needs besides its route: path parameters when the path names some, a body when it takes one. */
export type CallArgs<R extends ApiRoute> =
  /** Query parameters (filters of a list); empty values are left out. */
  & { readonly query?: Readonly<Record<string, string | number>> }
  & (keyof ParamsOf<R> extends never ? { readonly params?: undefined } : { readonly params: ParamsOf<R> })
  & (undefined extends BodyOf<R> ? { readonly body?: BodyOf<R> } : { readonly body: BodyOf<R> });

/**
 * Calls one route of the dashboard API. The route key (`"POST /providers"`) picks the body type it takes and
 * the answer type it gives from the shared contract, so a call the server does not accept cannot type-check.
 */
export function call<R extends ApiRoute>(
  route: R,
  ...[args]: Record<never, never> extends CallArgs<R> ? [CallArgs<R>?] : [CallArgs<R>]
): Promise<ApiResult<AnswerOf<R>>> {
  const space = route.indexOf(" ");
  const params: Readonly<Record<string, string | number>> = args?.params ?? {};
  const path = route.slice(space + 1).replace(/:([a-z_]+)/g, (_match, name: string) => {
    return encodeURIComponent(String(params[name]));
  });
  const query = new URLSearchParams(
    Object.entries(args?.query ?? {}).filter(([, v]) => v !== "").map(([k, v]) => [k, String(v)]),
  ).toString();
  return request<AnswerOf<R>>(
    route.slice(0, space),
    `${API_BASE}${path}${query ? `?${query}` : ""}`,
    args?.body,
  );
}

async function request<T>(
  method: string,
  url: string,
  body?: unknown,
  signal?: AbortSignal,
): Promise<ApiResult<T>> {
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      signal,
      credentials: "same-origin",
      headers: {
        accept: "application/json",
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    return { ok: false, status: 0, message: "The gateway did not answer. Is it running?", fields: {} };
  }
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  if (response.status === 401 && method === "GET") redirectToLogin();
  if (response.ok) return { ok: true, status: response.status, data: parsed as T };
  return { ok: false, status: response.status, ...describeError(parsed, response.status) };
}

/**
 * The message and field errors of a failed call. The API answers every failure with one body,
 * `{error: {message, type, field?}}`; the spec's fixed bodies (401 and 503) are `{detail}`.
 */
export function describeError(
  body: unknown,
  status: number,
): { message: string; fields: Record<string, string> } {
  const fields: Record<string, string> = {};
  const error = isApiError(body) ? body.error : undefined;
  const detail = isRecord(body) && typeof body.detail === "string" ? body.detail : "";
  const message = error?.message || detail || `Request failed (HTTP ${status})`;
  if (error?.field !== undefined) {
    // "daily_limit: must be …" reads better beside its field without the name.
    const named = `${error.field}: `;
    fields[error.field] = message.startsWith(named) ? message.slice(named.length) : message;
  }
  return { message, fields };
}

function isApiError(body: unknown): body is ApiErrorBody {
  return isRecord(body) && isRecord(body.error) && typeof body.error.message === "string";
}

/** True for plain objects. */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
