import type { ErrorKind } from "../model/mod.ts";

/** Upstream statuses that name their own kind; any other 4xx is the client's request being refused. */
const KIND_OF_STATUS: Readonly<Record<number, ErrorKind>> = {
  401: "authentication",
  403: "permission",
  404: "not_found",
  408: "timeout",
  413: "payload_too_large",
  429: "rate_limit",
};

/**
 * The kind of an upstream error status passed through to the client, so its envelope says what the
 * upstream said (a 404 stays not found, a 413 stays too large) rather than a generic bad request.
 */
export function upstreamErrorKind(status: number): ErrorKind {
  if (status >= 500) return "upstream";
  return KIND_OF_STATUS[status] ?? "invalid_request";
}
