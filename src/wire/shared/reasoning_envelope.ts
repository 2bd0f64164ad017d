import type { Extra, ProviderFamily, ReasoningPart } from "../../model/mod.ts";
import { base64ToText, textToBase64 } from "./base64_text.ts";
import { isRecord, tryParseJson } from "./json.ts";

/**
 * Marks an opaque reasoning token the gateway wrote (a Responses `encrypted_content`, a messages thinking
 * `signature`): reasoning a client format has no place for (another family's signature or encrypted
 * content, or unsigned text), carried through that client so it comes back with the next turn's history
 * and reaches the upstream that produced it as it came. Any instance reads it back: nothing is stored.
 */
export const REASONING_ENVELOPE_PREFIX = "gwr1.";

const FAMILIES: ReadonlySet<string> = new Set(["anthropic", "openai", "google", "other"]);

/** What an envelope holds: the producing family, its tokens or text, and the part's extra fields. */
export type EnvelopedReasoning = Pick<ReasoningPart, "signature" | "redactedData" | "extra"> & {
  readonly family: ProviderFamily;
  /** The reasoning text, for unsigned reasoning (its only content). */
  readonly text?: string;
};

/** Seals reasoning into an opaque token (short JSON keys: it travels in every later turn). */
export function sealReasoning(reasoning: EnvelopedReasoning): string {
  return REASONING_ENVELOPE_PREFIX + textToBase64(JSON.stringify({
    f: reasoning.family,
    s: reasoning.signature || undefined,
    d: reasoning.redactedData,
    t: reasoning.text,
    x: reasoning.extra,
  }));
}

function extraOf(value: unknown): Extra | undefined {
  if (!isRecord(value) || typeof value.format !== "string" || !isRecord(value.fields)) return undefined;
  return { format: value.format as Extra["format"], fields: value.fields };
}

/** What a token the gateway sealed holds, or undefined for any other token (the upstream's own). */
export function openReasoning(token: string): EnvelopedReasoning | undefined {
  if (!token.startsWith(REASONING_ENVELOPE_PREFIX)) return undefined;
  const parsed = tryParseJson(base64ToText(token.slice(REASONING_ENVELOPE_PREFIX.length)) ?? "");
  if (!isRecord(parsed) || typeof parsed.f !== "string" || !FAMILIES.has(parsed.f)) return undefined;
  const extra = extraOf(parsed.x);
  return {
    family: parsed.f as ProviderFamily,
    ...(typeof parsed.s === "string" ? { signature: parsed.s } : {}),
    ...(typeof parsed.d === "string" ? { redactedData: parsed.d } : {}),
    ...(typeof parsed.t === "string" ? { text: parsed.t } : {}),
    ...(extra ? { extra } : {}),
  };
}
