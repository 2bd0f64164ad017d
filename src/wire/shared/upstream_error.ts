import type { UpstreamErrorInfo } from "../../model/mod.ts";
import { isRecord } from "./json.ts";

/**
 * Reads an upstream error body: OpenAI `{error:{message,type,code,param}}`, Anthropic
 * `{type:"error",error:{type,message}}`, Google `{error:{code,message,status}}` (also as a one-element
 * list), Ollama `{error:"…"}` and bare `{message}` / `{detail}`. Null when the body is none of these, so the
 * caller keeps the text as it came: the client then sees the upstream's sentence in its own error envelope,
 * not the upstream's JSON escaped inside a string.
 */
export function readUpstreamError(text: string): UpstreamErrorInfo | null {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  if (Array.isArray(body) && body.length === 1) body = body[0];
  if (!isRecord(body)) return null;
  const inner = body.error;
  if (typeof inner === "string" && inner.trim() !== "") return { message: inner.trim() };
  const source = isRecord(inner) ? inner : body;
  const message = firstString(source.message, source.detail, body.message, body.detail);
  if (message === undefined) return null;
  const type = firstString(source.type, source.status);
  const code = firstString(source.code);
  const param = firstString(source.param);
  return {
    message,
    ...(type === undefined || type === "error" ? {} : { type }),
    ...(code === undefined ? {} : { code }),
    ...(param === undefined ? {} : { param }),
  };
}

function firstString(...values: unknown[]): string | undefined {
  for (const value of values) {
    if (typeof value === "string" && value.trim() !== "") return value.trim();
  }
  return undefined;
}

/**
 * The upstream's error type and code where an OpenAI-style envelope can carry them: snake-case names
 * (`invalid_request_error`, `model_not_found`), not another convention's (`NOT_FOUND`), which would mislead
 * a client switching on them. The gateway's own values fill what is missing.
 */
export function openAiTypeAndCode(
  error: UpstreamErrorInfo | undefined,
  fallback: { readonly type: string; readonly code: string },
): { type: string; code: string; param: string | null } {
  const snake = (value: string | undefined) => value !== undefined && /^[a-z][a-z0-9_]*$/.test(value);
  return {
    type: snake(error?.type) ? error!.type! : fallback.type,
    code: snake(error?.code) ? error!.code! : fallback.code,
    param: error?.param ?? null,
  };
}
