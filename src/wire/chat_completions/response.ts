import type { Finish, NeutralResponse, Part } from "../../model/mod.ts";
import { extraFieldsFor, GatewayError, ZERO_USAGE } from "../../model/mod.ts";
import type { EncodeContext } from "../codec.ts";
import { isRecord, syntheticToolId } from "../shared/mod.ts";
import { chatExtra, mergeExtraFields, unknownFields } from "./extra_fields.ts";
import { decodeFinish, encodeFinish } from "./finish.ts";
import { chatCompletionId } from "./ids.ts";
import { googleSignature } from "./google_signature.ts";
import { decodeUsage, encodeUsage } from "./usage.ts";

const KNOWN_TOP = new Set(["id", "object", "created", "model", "choices", "usage"]);
const KNOWN_CHOICE = new Set(["index", "message", "finish_reason", "logprobs"]);
const KNOWN_MESSAGE = new Set(["role", "content", "tool_calls", "reasoning_content", "reasoning", "refusal"]);

type Json = Record<string, unknown>;

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
    : { unified: parts.some((p) => p.kind === "toolCall") ? "tool_calls" : "stop", raw: null };

  const fields = unknownFields(body, KNOWN_TOP) ?? {};
  const choiceExtra = unknownFields(choice, KNOWN_CHOICE) ?? {};
  if (choice.logprobs !== undefined && choice.logprobs !== null) choiceExtra.logprobs = choice.logprobs;
  const messageExtra = unknownFields(message, KNOWN_MESSAGE);
  if (messageExtra) choiceExtra.message = messageExtra;
  // Choice-level leftovers ride in `choices[0]` so a same-format encoder can put them back in place.
  if (Object.keys(choiceExtra).length > 0) fields.choices = [choiceExtra];

  const response: NeutralResponse = {
    id,
    model: typeof body.model === "string" ? body.model : "",
    parts,
    finish,
    usage: decodeUsage(body.usage) ?? ZERO_USAGE,
  };
  const extra = chatExtra(Object.keys(fields).length > 0 ? fields : undefined);
  return {
    ...response,
    ...(typeof body.created === "number" ? { created: body.created } : {}),
    ...(extra ? { extra } : {}),
  };
}

function notACompletion(why: string, body: unknown): GatewayError {
  return new GatewayError(502, "upstream", `Upstream response is not a chat completion: ${why}`, {
    upstreamBody: typeof body === "string" ? body : JSON.stringify(body),
  });
}

function decodeMessageParts(message: Json, responseId: string): Part[] {
  const parts: Part[] = [];
  const reasoning = typeof message.reasoning_content === "string" && message.reasoning_content !== ""
    ? message.reasoning_content
    : typeof message.reasoning === "string"
    ? message.reasoning
    : "";
  if (reasoning !== "") parts.push({ kind: "reasoning", text: reasoning });
  const text = contentText(message.content);
  if (text !== "") parts.push({ kind: "text", text });
  else if (typeof message.refusal === "string" && message.refusal !== "") {
    parts.push({ kind: "text", text: message.refusal });
  }
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
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

/** Encodes a neutral response as a client-facing chat completion. */
export function encodeChatResponse(response: NeutralResponse, ctx: EncodeContext): Json {
  let text = "";
  let reasoning = "";
  const calls: Json[] = [];
  for (const part of response.parts) {
    switch (part.kind) {
      case "text":
        text += part.text;
        break;
      case "reasoning":
        reasoning += part.text;
        break;
      case "toolCall":
        calls.push({
          id: part.id,
          type: "function",
          function: { name: part.name, arguments: part.arguments },
        });
        break;
      case "image":
      case "toolResult":
        break;
    }
  }
  const message: Json = { role: "assistant", content: text === "" && calls.length > 0 ? null : text };
  if (calls.length > 0) message.tool_calls = calls;
  if (reasoning !== "") message.reasoning_content = reasoning;
  const choice: Json = { index: 0, message, finish_reason: encodeFinish(response.finish), logprobs: null };

  const fields = extraFieldsFor(response.extra, "chat_completions");
  const choiceExtra = Array.isArray(fields.choices) && isRecord(fields.choices[0])
    ? fields.choices[0]
    : undefined;
  delete fields.choices;
  if (choiceExtra) {
    const { logprobs, ...rest } = choiceExtra;
    if (logprobs !== undefined) choice.logprobs = logprobs;
    mergeExtraFields(choice, rest);
  }
  const body: Json = {
    id: chatCompletionId(response.id, String(ctx.now)),
    object: "chat.completion",
    created: response.created ?? ctx.now,
    model: response.model,
    choices: [choice],
    usage: encodeUsage(response.usage),
  };
  return mergeExtraFields(body, fields);
}
