/** The dashboard API client: state reads and mutations, with errors normalised for forms. */
import type { StateEnvelope, StateSection } from "../../../src/dashboard/contract/mod.ts";

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

/** Reads one JSON resource of the management API (not a state section). */
export function getJson<T>(path: string): Promise<ApiResult<T>> {
  return request<T>("GET", path);
}

/** Sends a JSON mutation. */
export function send<T>(
  method: "POST" | "PUT" | "PATCH" | "DELETE",
  path: string,
  body?: unknown,
): Promise<ApiResult<T>> {
  return request<T>(method, path.startsWith("/") ? path : `${API_BASE}/${path}`, body);
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

/** Extracts a message and field errors from the error bodies the API may send. */
export function describeError(
  body: unknown,
  status: number,
): { message: string; fields: Record<string, string> } {
  const fields: Record<string, string> = {};
  let message = "";
  if (typeof body === "string" && body.trim() !== "") message = body.trim().slice(0, 300);
  if (isRecord(body)) {
    const error = isRecord(body.error) ? body.error : body;
    if (typeof error.message === "string") message = error.message;
    else if (typeof body.detail === "string") message = body.detail;
    else if (typeof body.error === "string") message = body.error;
    collectFields(error.fields, fields);
    collectFields(body.fields, fields);
    collectFields(error.field_errors, fields);
    collectFields(body.errors, fields);
    if (typeof error.field === "string" && message) {
      // "daily_limit: must be …" reads better beside its field without the name.
      fields[error.field] = message.startsWith(`${error.field}: `)
        ? message.slice(error.field.length + 2)
        : message;
    }
  }
  if (message === "" || Object.keys(fields).length === 0) {
    // Messages of the form "name: must be …" name their field.
    const match = /^([a-z_][a-z0-9_.]*): (.+)$/i.exec(message);
    if (match && Object.keys(fields).length === 0) fields[match[1]] = match[2];
  }
  return { message: message || `Request failed (HTTP ${status})`, fields };
}

function collectFields(source: unknown, into: Record<string, string>): void {
  if (Array.isArray(source)) {
    for (const item of source) {
      if (!isRecord(item)) continue;
      const name = typeof item.field === "string"
        ? item.field
        : Array.isArray(item.path)
        ? item.path.join(".")
        : typeof item.path === "string"
        ? item.path
        : undefined;
      const text = typeof item.message === "string" ? item.message : undefined;
      if (name && text) into[name] = text;
    }
  } else if (isRecord(source)) {
    for (const [name, value] of Object.entries(source)) {
      if (typeof value === "string") into[name] = value;
      else if (Array.isArray(value) && typeof value[0] === "string") into[name] = value[0];
    }
  }
}

/** True for plain objects. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
