import type {
  Message,
  NeutralRequest,
  Part,
  ProviderFamily,
  ReasoningPart,
  TextPart,
  ToolCallPart,
} from "../model/mod.ts";
import { stableHash, toolIdFor } from "../wire/shared/mod.ts";

/** Signed reasoning of one turn, as the upstream sent it. */
export interface SignedReasoning {
  readonly text: string;
  readonly signature?: string;
  readonly redactedData?: string;
  readonly family?: ProviderFamily;
}

/**
 * The opaque upstream tokens of one assistant tool call: its own signature (Gemini's thoughtSignature on
 * functionCall parts) and, with the turn's first call, the signed reasoning that opened the turn
 * (Anthropic thinking, Gemini thoughts, Responses encrypted reasoning).
 */
export interface CallTokens {
  readonly signature?: string;
  readonly family?: ProviderFamily;
  readonly reasoning?: readonly SignedReasoning[];
}

/** Arguments longer than this are keyed by length and hashes instead of their text. */
const INLINE_ARGUMENTS = 160;

/** Where a Gemini text part's `thoughtSignature` travels in the neutral model: its own format's extra. */
const GEMINI = "generate_content";

/** Long text as a key: its length and two hashes (one of the text reversed), not the text itself. */
function digest(text: string): string {
  return `${text.length}:${stableHash(text)}:${stableHash(text.split("").reverse().join(""))}`;
}

/**
 * The key of an assistant turn's text, for Gemini's `thoughtSignature` on text parts: the turn's text
 * parts joined, since Gemini may split an answer over several parts (signing the last) that a client
 * keeps as one block. Null for a turn without text.
 */
export function textKey(parts: readonly Part[]): string | null {
  const text = parts.map((p) => (p.kind === "text" ? p.text : "")).join("");
  return text === "" ? null : `text:${digest(text)}`;
}

/** The Gemini thoughtSignature a text part carries (in its generate-content extra), if any. */
export function textSignature(part: Part): string | undefined {
  if (part.kind !== "text" || part.extra?.format !== GEMINI) return undefined;
  const signature = part.extra.fields.thoughtSignature;
  return typeof signature === "string" && signature !== "" ? signature : undefined;
}

/**
 * The keys a tool call is found by: its id (as every client encoder writes it), and its name with its
 * arguments, for clients that re-number calls (Ollama clients send none; Gemini clients may drop them).
 */
export function callKeys(call: Pick<ToolCallPart, "id" | "name" | "arguments">): string[] {
  const keys = call.id === "" ? [] : [`id:${toolIdFor(call.id)}`];
  let args: string;
  try {
    // Clients re-serialise arguments; the parsed value is what stays the same.
    args = JSON.stringify(JSON.parse(call.arguments === "" ? "{}" : call.arguments));
  } catch {
    args = call.arguments;
  }
  const argsKey = args.length <= INLINE_ARGUMENTS ? args : digest(args);
  keys.push(`args:${call.name}:${argsKey}`);
  return keys;
}

function signed(part: Part): part is ReasoningPart {
  return part.kind === "reasoning" && (!!part.signature || !!part.redactedData);
}

/**
 * The tokens an answer's tool calls carry, by key, and a Gemini signature on its text (keyed by the
 * text, see textKey); empty when there is nothing opaque to keep.
 */
export function tokensOfAnswer(parts: readonly Part[]): Map<string, CallTokens> {
  const out = new Map<string, CallTokens>();
  const textSigned = parts.findLast((p) => textSignature(p) !== undefined);
  const key = textSigned === undefined ? null : textKey(parts);
  if (textSigned !== undefined && key !== null) {
    out.set(key, { signature: textSignature(textSigned), family: "google" });
  }
  const reasoning: SignedReasoning[] = [];
  for (const part of parts) {
    if (signed(part)) {
      reasoning.push({
        text: part.text,
        ...(part.signature ? { signature: part.signature } : {}),
        ...(part.redactedData ? { redactedData: part.redactedData } : {}),
        ...(part.family ? { family: part.family } : {}),
      });
    }
  }
  let first = true;
  for (const part of parts) {
    if (part.kind !== "toolCall") continue;
    const tokens: CallTokens = {
      ...(part.signature ? { signature: part.signature, family: part.family } : {}),
      ...(first && reasoning.length > 0 ? { reasoning } : {}),
    };
    first = false;
    if (tokens.signature === undefined && tokens.reasoning === undefined) continue;
    for (const key of callKeys(part)) out.set(key, tokens);
  }
  return out;
}

/**
 * Puts back what a client could not carry: a tool call without its signature gets the one kept for it,
 * and an assistant turn with tool calls but no signed reasoning gets the reasoning kept with its first
 * call (replacing the unsigned copy some formats echo, e.g. chat's reasoning_content). Tokens the client
 * did carry always win. The request is returned unchanged when nothing was restored.
 */
export function restoreTokens(
  request: NeutralRequest,
  lookup: (key: string) => CallTokens | undefined,
): NeutralRequest {
  let changed = false;
  const messages = request.messages.map((message) => {
    const restored = restoreMessage(message, lookup);
    if (restored !== message) changed = true;
    return restored;
  });
  return changed ? { ...request, messages } : request;
}

function find(call: ToolCallPart, lookup: (key: string) => CallTokens | undefined): CallTokens | undefined {
  for (const key of callKeys(call)) {
    const tokens = lookup(key);
    if (tokens !== undefined) return tokens;
  }
  return undefined;
}

function restoreMessage(message: Message, lookup: (key: string) => CallTokens | undefined): Message {
  if (message.role !== "assistant") return message;
  return restoreTextSignature(restoreCalls(message, lookup), lookup);
}

/**
 * An assistant turn whose text came from a Gemini answer that signed it, replayed without the signature:
 * its last text part gets it back (as generate-content extra, which only a Gemini upstream encodes). A
 * text part that already carries extra fields, or a turn with any signed text, is left alone.
 */
function restoreTextSignature(message: Message, lookup: (key: string) => CallTokens | undefined): Message {
  if (message.parts.some((p) => textSignature(p) !== undefined)) return message;
  const key = textKey(message.parts);
  const signature = key === null ? undefined : lookup(key)?.signature;
  if (signature === undefined) return message;
  const last = message.parts.findLastIndex((p) => p.kind === "text");
  const part = message.parts[last] as TextPart;
  if (part.extra !== undefined) return message;
  const parts = message.parts.with(last, {
    ...part,
    extra: { format: GEMINI, fields: { thoughtSignature: signature } },
  });
  return { ...message, parts };
}

function restoreCalls(message: Message, lookup: (key: string) => CallTokens | undefined): Message {
  if (!message.parts.some((p) => p.kind === "toolCall")) return message;
  let changed = false;
  let reasoning: readonly SignedReasoning[] | undefined;
  const hasSigned = message.parts.some(signed);
  const parts: Part[] = [];
  for (const part of message.parts) {
    if (part.kind !== "toolCall") {
      parts.push(part);
      continue;
    }
    const tokens = find(part, lookup);
    if (!hasSigned && reasoning === undefined && tokens?.reasoning) reasoning = tokens.reasoning;
    if (part.signature === undefined && tokens?.signature !== undefined) {
      parts.push({ ...part, signature: tokens.signature, family: tokens.family });
      changed = true;
    } else parts.push(part);
  }
  if (reasoning !== undefined) {
    // Signed reasoning opens the turn (the messages API requires it first); unsigned echoes of it go.
    const kept = parts.filter((p) => p.kind !== "reasoning");
    const restored: ReasoningPart[] = reasoning.map((r) => ({ kind: "reasoning", ...r }));
    return { ...message, parts: [...restored, ...kept] };
  }
  return changed ? { ...message, parts } : message;
}
