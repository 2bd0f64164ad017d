import type { NeutralRequest } from "../../model/mod.ts";
import { utf8Length } from "../measure.ts";
import type { Saver } from "../types.ts";
import { project, unproject } from "./projection.ts";

/** Bodies above this are not sent: the service's compression time grows faster than linearly. */
export const HEADROOM_MAX_BODY_BYTES = 256 * 1024;
/** How long the service gets before the request goes on uncompressed. */
export const HEADROOM_TIMEOUT_MS = 3000;

/** What the Headroom saver needs from outside. */
export interface HeadroomDeps {
  readonly fetch: typeof fetch;
  /** A signal that aborts after `ms`; injected so tests control time. */
  readonly timeoutSignal?: (ms: number) => AbortSignal;
  readonly timeoutMs?: number;
  readonly maxBodyBytes?: number;
}

/** Thrown for every way the service can fail; the pipeline reports it and keeps the request. */
export class HeadroomError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "HeadroomError";
  }
}

async function post(url: string, body: string, deps: HeadroomDeps): Promise<unknown> {
  const timeoutMs = deps.timeoutMs ?? HEADROOM_TIMEOUT_MS;
  const signal = (deps.timeoutSignal ?? ((ms: number) => AbortSignal.timeout(ms)))(timeoutMs);
  let response: Response;
  try {
    response = await deps.fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
      signal,
    });
  } catch (error) {
    const reason = signal.aborted ? `timed out after ${timeoutMs} ms` : String(error);
    throw new HeadroomError(`Headroom at ${url} failed: ${reason}`, { cause: error });
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new HeadroomError(`Headroom at ${url} answered HTTP ${response.status}`);
  }
  try {
    return await response.json();
  } catch (error) {
    throw new HeadroomError(`Headroom at ${url} answered with invalid JSON`, { cause: error });
  }
}

/**
 * Headroom: sends the request's texts to an external compression service (`POST {url}/v1/compress`,
 * `{model, messages}` in OpenAI chat shape) and puts the compressed texts back. Bodies over 256 KB
 * are skipped; failures (timeout, non-200, malformed or mismatching answers) throw, and the pipeline
 * keeps the request unchanged.
 */
export function headroomSaver(baseUrl: string, deps: HeadroomDeps): Saver {
  const url = `${baseUrl.replace(/\/+$/, "")}/v1/compress`;
  return {
    name: "headroom",
    async apply(request: NeutralRequest): Promise<NeutralRequest> {
      const projection = project(request);
      if (projection.messages.length === 0) return request;
      const body = JSON.stringify({ model: request.model, messages: projection.messages });
      if (utf8Length(body) > (deps.maxBodyBytes ?? HEADROOM_MAX_BODY_BYTES)) return request;
      const answer = await post(url, body, deps);
      const messages = typeof answer === "object" && answer !== null
        ? (answer as Record<string, unknown>).messages
        : undefined;
      if (!Array.isArray(messages) || messages.length === 0) {
        throw new HeadroomError(`Headroom at ${url} answered without a messages array`);
      }
      const next = unproject(request, projection, messages);
      if (!next) {
        throw new HeadroomError(`Headroom at ${url} answered messages that do not match the request`);
      }
      return next;
    },
  };
}
