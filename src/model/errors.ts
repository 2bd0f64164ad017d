/** What went wrong, independent of any wire format. Each codec maps kinds to its own error types. */
export type ErrorKind =
  | "invalid_request"
  | "authentication"
  | "permission"
  | "model_not_allowed"
  | "not_found"
  | "payload_too_large"
  | "rate_limit"
  | "budget_exceeded"
  | "upstream"
  | "overloaded"
  | "unavailable"
  | "timeout"
  // The client went away before it was answered (HTTP 499): not its input's fault, nor the upstream's.
  | "client_closed"
  | "internal";

/** What an upstream said in an error body, read from any provider's shape (wire/shared/upstream_error.ts). */
export interface UpstreamErrorInfo {
  /** The upstream's own sentence. */
  readonly message: string;
  /** Its error type or status name (`invalid_request_error`, `not_found_error`, `NOT_FOUND`), when named. */
  readonly type?: string;
  /** Its error code (`model_not_found`), when named. */
  readonly code?: string;
  /** The request field it blames, when named. */
  readonly param?: string;
}

/** Options carried by a GatewayError beyond status and kind. */
export interface GatewayErrorOptions {
  /** Response headers the boundary must set (e.g. Retry-After). */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * A body fixed by the spec (401 `{detail}`, 429 budget, 503 `{detail}`); when set, the boundary
   * sends it as is instead of the client format's error envelope.
   */
  readonly fixedBody?: unknown;
  /** The upstream's own error body, kept for request logs. */
  readonly upstreamBody?: string;
  /** The upstream's error as it said it, for a client envelope that can carry its type, code and param. */
  readonly upstreamError?: UpstreamErrorInfo;
  /** The input field at fault (management APIs show it beside the form field). */
  readonly field?: string;
  readonly cause?: unknown;
}

/** The one domain error. It is turned into an HTTP response in exactly one place. */
export class GatewayError extends Error {
  readonly status: number;
  readonly kind: ErrorKind;
  readonly headers: Readonly<Record<string, string>>;
  readonly fixedBody?: unknown;
  readonly upstreamBody?: string;
  readonly upstreamError?: UpstreamErrorInfo;
  readonly field?: string;

  constructor(status: number, kind: ErrorKind, message: string, options: GatewayErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = "GatewayError";
    this.status = status;
    this.kind = kind;
    this.headers = options.headers ?? {};
    this.fixedBody = options.fixedBody;
    this.upstreamBody = options.upstreamBody;
    this.upstreamError = options.upstreamError;
    this.field = options.field;
  }
}

/** Shorthand for a 400 invalid_request error. */
export function invalidRequest(message: string): GatewayError {
  return new GatewayError(400, "invalid_request", message);
}
