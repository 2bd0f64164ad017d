import type {
  Message,
  NeutralRequest,
  Part,
  ProviderFamily,
  ReasoningPart,
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
  const argsKey = args.length <= INLINE_ARGUMENTS
    ? args
    : `${args.length}:${stableHash(args)}:${stableHash(args.split("").reverse().join(""))}`;
  keys.push(`args:${call.name}:${argsKey}`);
  return keys;
}

function signed(part: Part): part is ReasoningPart {
  return part.kind === "reasoning" && (!!part.signature || !!part.redactedData);
}

/** The tokens an answer's tool calls carry, by key; empty when there is nothing opaque to keep. */
export function tokensOfAnswer(parts: readonly Part[]): Map<string, CallTokens> {
  const out = new Map<string, CallTokens>();
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
  if (message.role !== "assistant" || !message.parts.some((p) => p.kind === "toolCall")) return message;
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
