/**
 * The body normalisation the ChatGPT/Codex backend requires of a Responses request (it rejects the
 * generation parameters the public API takes, wants a stream, and no stored responses).
 */

/** Parameters the Codex backend rejects; dropped from the encoded body. */
const DROPPED = [
  "temperature",
  "top_p",
  "frequency_penalty",
  "presence_penalty",
  "logprobs",
  "top_logprobs",
  "n",
  "seed",
  "max_tokens",
  "max_output_tokens",
  "user",
  "prompt_cache_retention",
  "metadata",
  "stream_options",
  "safety_identifier",
  "truncation",
];

const EFFORT_SUFFIX = /-(none|minimal|low|medium|high|xhigh)$/;

/** Used when a request has no instructions: the backend requires the field. */
export const DEFAULT_CODEX_INSTRUCTIONS = "You are a helpful coding assistant.";

/** A Responses body as the Codex backend takes it, and what was dropped (for the warnings). */
export function normalizeCodexBody(body: Record<string, unknown>): {
  body: Record<string, unknown>;
  dropped: string[];
} {
  const out: Record<string, unknown> = { ...body };
  const dropped = DROPPED.filter((key) => out[key] !== undefined);
  for (const key of dropped) delete out[key];
  // A model name may carry the effort: gpt-5-codex-high → gpt-5-codex with reasoning.effort "high".
  const reasoning: Record<string, unknown> = { ...(out.reasoning as Record<string, unknown> ?? {}) };
  if (typeof out.model === "string") {
    const suffix = EFFORT_SUFFIX.exec(out.model);
    if (suffix) {
      out.model = out.model.slice(0, -suffix[0].length);
      reasoning.effort = suffix[1];
    }
  }
  if (reasoning.effort === undefined) reasoning.effort = "medium";
  reasoning.summary ??= "auto";
  out.reasoning = reasoning;
  if (reasoning.effort !== "none") {
    const include = Array.isArray(out.include) ? [...out.include] : [];
    if (!include.includes("reasoning.encrypted_content")) include.push("reasoning.encrypted_content");
    out.include = include;
  }
  out.stream = true;
  out.store = false;
  if (typeof out.instructions !== "string" || out.instructions.trim() === "") {
    out.instructions = DEFAULT_CODEX_INSTRUCTIONS;
  }
  if (typeof out.input === "string") out.input = [{ role: "user", content: out.input }];
  if (Array.isArray(out.input)) out.input = out.input.map(developerNotSystem);
  return { body: out, dropped };
}

/** The backend takes no `system` role inside `input`; `developer` carries the same text. */
function developerNotSystem(item: unknown): unknown {
  if (item === null || typeof item !== "object") return item;
  const record = item as Record<string, unknown>;
  return record.role === "system" ? { ...record, role: "developer" } : item;
}
