import type { Finish, NeutralResponse, Part } from "../../model/mod.ts";
import { GatewayError, ZERO_USAGE } from "../../model/mod.ts";
import { isRecord, syntheticToolId } from "../shared/mod.ts";
import { unknownFields, withChatExtra } from "./extra_fields.ts";
import { decodeFinish } from "./finish.ts";
import { googleSignature } from "./google_signature.ts";
import type { Mutable } from "./mutable.ts";
import { decodeUsage } from "./usage.ts";

const KNOWN_TOP = new Set(["id", "object", "created", "model", "choices", "usage"]);
const KNOWN_CHOICE = new Set(["index", "message", "finish_reason", "logprobs"]);
const KNOWN_MESSAGE = new Set(["role", "content", "tool_calls", "reasoning_content", "reasoning", "refusal"]);

type Json = Record<string, unknown>;

/** Stands in for a missing `tool_calls` list (never written to). */
const EMPTY: readonly unknown[] = [];

/** The message of an `error` object some upstreams send inside a 200. */
export function upstreamErrorMessage(error: unknown): string {
  if (isRecord(error) && typeof error.message === "string" && error.message !== "") return error.message;
  return typeof error === "string" ? error : JSON.stringify(error);
}

/** Decodes an upstream chat completion; throws GatewayError 502 when the body is not one. */
export function decodeChatResponse(body: unknown): NeutralResponse {
  if (!isRecord(body)) throw notACompletion("the body is not a JSON object", body);
  if (body.error !== undefined && body.error !== null) {
    throw new GatewayError(
      502,
      "upstream",
      `Upstream returned an error: ${upstreamErrorMessage(body.error)}`,
      {
        upstreamBody: JSON.stringify(body),
      },
    );
  }
  const choices = body.choices;
  if (!Array.isArray(choices) || choices.length === 0 || !isRecord(choices[0])) {
    throw notACompletion("it has no choices", body);
  }
  const choice = choices[0];
  const message = isRecord(choice.message) ? choice.message : {};
  const id = typeof body.id === "string" ? body.id : "";
  const parts = decodeMessageParts(message, id);
  const finish: Finish = typeof choice.finish_reason === "string"
    ? decodeFinish(choice.finish_reason)
    : { unified: hasToolCall(parts) ? "tool_calls" : "stop", raw: null };

  let fields = unknownFields(body, KNOWN_TOP);
  let choiceExtra = unknownFields(choice, KNOWN_CHOICE);
  if (choice.logprobs !== undefined && choice.logprobs !== null) {
    (choiceExtra ??= {}).logprobs = choice.logprobs;
  }
  const messageExtra = unknownFields(message, KNOWN_MESSAGE);
  if (messageExtra) (choiceExtra ??= {}).message = messageExtra;
  // Choice-level leftovers ride in `choices[0]` so a same-format encoder can put them back in place.
  if (choiceExtra) (fields ??= {}).choices = [choiceExtra];

  // Built key by key so that absent optional fields get no key at all.
  const response: Mutable<NeutralResponse> = {
    id,
    model: typeof body.model === "string" ? body.model : "",
    parts,
    finish,
    usage: decodeUsage(body.usage) ?? ZERO_USAGE,
  };
  if (typeof body.created === "number") response.created = body.created;
  return withChatExtra(response, fields);
}

function hasToolCall(parts: readonly Part[]): boolean {
  for (const part of parts) if (part.kind === "toolCall") return true;
  return false;
}

function notACompletion(why: string, body: unknown): GatewayError {
  return new GatewayError(502, "upstream", `Upstream response is not a chat completion: ${why}`, {
    upstreamBody: typeof body === "string" ? body : JSON.stringify(body),
  });
}

function decodeMessageParts(message: Json, responseId: string): Part[] {
  const reasoning = typeof message.reasoning_content === "string" && message.reasoning_content !== ""
    ? message.reasoning_content
    : typeof message.reasoning === "string"
    ? message.reasoning
    : "";
  const content = contentText(message.content);
  const text = content !== "" ? content : typeof message.refusal === "string" ? message.refusal : "";
  // Array literals rather than pushes into `[]`: a first push reserves room for 17 entries.
  const parts: Part[] = reasoning !== ""
    ? text !== ""
      ? [{ kind: "reasoning", text: reasoning }, { kind: "text", text }]
      : [{ kind: "reasoning", text: reasoning }]
    : text !== ""
    ? [{ kind: "text", text }]
    : [];
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls : EMPTY;
  calls.forEach((call, i) => {
    if (!isRecord(call)) return;
    const fn = isRecord(call.function) ? call.function : {};
    const name = typeof fn.name === "string" ? fn.name : "";
    const args = typeof fn.arguments === "string"
      ? fn.arguments
      : isRecord(fn.arguments)
      ? JSON.stringify(fn.arguments)
      : "";
    const id = typeof call.id === "string" && call.id !== "" ? call.id : syntheticToolId(responseId, i, name);
    const signature = googleSignature(call.extra_content);
    parts.push(
      signature === undefined
        ? { kind: "toolCall", id, name, arguments: args }
        : { kind: "toolCall", id, name, arguments: args, signature, family: "google" },
    );
  });
  return parts;
}

/** Message content as text: a string, or the text of an array of text parts. */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  let out = "";
  for (const part of content) if (isRecord(part) && typeof part.text === "string") out += part.text;
  return out;
}
