import type { ProviderFamily, ReasoningPart } from "../../model/mod.ts";
import { isRecord, tryParseJson } from "../shared/mod.ts";

/**
 * Marks an `encrypted_content` the gateway wrote: another provider family's signed reasoning (Anthropic
 * thinking signatures, redacted thinking, Gemini thought signatures), or unsigned reasoning text
 * (chat-completions `reasoning_content`, Gemini thoughts), carried through a Responses client so it comes
 * back with the next turn's history: stateless clients drop reasoning items that have no encrypted_content.
 */
const PREFIX = "gwr1.";

const FAMILIES: ReadonlySet<string> = new Set(["anthropic", "google", "other"]);

/** What a wrapped token holds. */
type Wrapped = Pick<ReasoningPart, "signature" | "redactedData"> & {
  readonly family: ProviderFamily;
  /** The reasoning text, for unsigned reasoning (its only content). */
  readonly text?: string;
};

function toBase64(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function fromBase64(data: string): string | undefined {
  try {
    const binary = atob(data);
    return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

/**
 * The encrypted_content for reasoning that is not OpenAI's: the family and its tokens, or, for unsigned
 * reasoning, its text (the upstream wants it back as text: DeepSeek- and Kimi-style `reasoning_content`).
 * Undefined for OpenAI's own reasoning and for empty reasoning.
 */
export function wrapForeignReasoning(
  family: ProviderFamily | undefined,
  signature: string | undefined,
  redactedData: string | undefined,
  text: string,
): string | undefined {
  if (family === "openai") return undefined;
  if (signature || redactedData) {
    if (family === undefined) return undefined;
    return PREFIX + toBase64(JSON.stringify({ f: family, s: signature || undefined, d: redactedData }));
  }
  if (text === "") return undefined;
  return PREFIX + toBase64(JSON.stringify({ f: family ?? "other", t: text }));
}

/** The family and tokens of an encrypted_content the gateway wrote, or undefined for OpenAI's own. */
export function unwrapForeignReasoning(encrypted: string): Wrapped | undefined {
  if (!encrypted.startsWith(PREFIX)) return undefined;
  const parsed = tryParseJson(fromBase64(encrypted.slice(PREFIX.length)) ?? "");
  if (!isRecord(parsed) || typeof parsed.f !== "string" || !FAMILIES.has(parsed.f)) return undefined;
  return {
    family: parsed.f as ProviderFamily,
    ...(typeof parsed.s === "string" ? { signature: parsed.s } : {}),
    ...(typeof parsed.d === "string" ? { redactedData: parsed.d } : {}),
    ...(typeof parsed.t === "string" ? { text: parsed.t } : {}),
  };
}
