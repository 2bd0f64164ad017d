import type { GatewayWarning, NeutralRequest, UpstreamFormat } from "../model/mod.ts";

export type { GatewayWarning } from "../model/mod.ts";

/** The response header that lists the codes of an answer's warnings. */
export const WARNINGS_HEADER = "x-gateway-warnings";

/** More codes than this are summarised as `more:<n>` so a hostile request cannot grow the header. */
const MAX_HEADER_CODES = 32;

/** How a codec sentence becomes codes; `$1` in a code is the first capture, made code-safe. */
interface Rule {
  readonly pattern: RegExp;
  readonly code: string;
}

/**
 * The codecs' warning sentences, matched in order (the first match wins). Codes are the contract; the
 * sentences may be reworded, and tests/gateway/warnings_test.ts runs the codecs to catch a sentence that
 * no longer matches (it would fall to `other`).
 */
const RULES: readonly Rule[] = [
  { pattern: /^(\w+): dropped \(the chat endpoint/, code: "dropped_field:$1" },
  { pattern: /^toolChoice: .* cannot be expressed/, code: "dropped_field:tool_choice" },
  {
    pattern: /^(top_k|top_p|seed|temperature|presence_penalty|frequency_penalty)\b/,
    code: "dropped_field:$1",
  },
  { pattern: /^stop sequences cannot be expressed/, code: "dropped_field:stop" },
  { pattern: /^thinking dropped/, code: "dropped_field:thinking" },
  {
    pattern: /cacheControl on .* cannot be expressed|dropped cache breakpoints/,
    code: "dropped_field:cache_control",
  },
  { pattern: /image detail hints/, code: "dropped_field:image_detail" },
  { pattern: /error flags? .*cannot be expressed|tool error flag/, code: "dropped_field:tool_error" },
  { pattern: /signature .*cannot be expressed/, code: "dropped_part:signature" },
  { pattern: /has no thought signature to send back/, code: "changed_part:signature" },
  { pattern: /^thinking turned off/, code: "changed_field:thinking" },
  { pattern: /redacted reasoning/, code: "dropped_part:redacted_reasoning" },
  { pattern: /reasoning (block|from provider|without)|dropped reasoning/, code: "dropped_part:reasoning" },
  { pattern: /^image prefetch failed/, code: "changed_part:image_not_fetched" },
  { pattern: /image (by URL|part)|images (in|inside)|image in the result/, code: "dropped_part:image" },
  { pattern: /^(\w+) part in a user message dropped/, code: "dropped_part:$1" },
  { pattern: /non-tool-result part|does not allow in that role/, code: "dropped_part:misplaced" },
  { pattern: /^max_tokens raised/, code: "changed_field:max_tokens" },
  { pattern: /^thinking budget .* raised/, code: "changed_field:thinking_budget" },
  { pattern: /^reasoning budget .* expressed as reasoning_effort/, code: "changed_field:reasoning_budget" },
  { pattern: /^sent only the first \d+ of \d+ stop sequences/, code: "changed_field:stop" },
  { pattern: /arguments that are not a JSON object/, code: "changed_field:tool_arguments" },
  { pattern: /matches no earlier tool call/, code: "changed_field:tool_result_name" },
];

/** A field list warning (`dropped <format> fields … : a, b`) names one code per field. */
const DROPPED_FIELDS = /^dropped \w+ fields [^:]*: (.+)$/;

/** The codes of one codec sentence (usually one; a dropped-fields list gives one per field). */
export function warningCodes(message: string): string[] {
  const fields = DROPPED_FIELDS.exec(message);
  if (fields) return fields[1].split(",").map((name) => `dropped_field:${codeSafe(name.trim())}`);
  for (const rule of RULES) {
    const match = rule.pattern.exec(message);
    if (match) return [rule.code.replace("$1", codeSafe(match[1] ?? ""))];
  }
  return ["other"];
}

/**
 * Request-level fields the client's format kept verbatim (`extra`) reach only an upstream of the same
 * format; every other encoder leaves them out, so they are reported here for all targets alike.
 */
export function droppedExtraWarnings(request: NeutralRequest, target: UpstreamFormat): GatewayWarning[] {
  const extra = request.extra;
  if (extra === undefined || extra.format === target) return [];
  return Object.keys(extra.fields).map((name) => ({
    code: `dropped_field:${codeSafe(name)}`,
    message: `${name}: a ${extra.format} field the ${target} upstream cannot express; dropped`,
  }));
}

/** Adds a codec's warning sentences to `into`, one entry per code (the first sentence for a code wins). */
export function addWarnings(into: GatewayWarning[], messages: readonly string[]): void {
  for (const message of messages) {
    for (const code of warningCodes(message)) {
      if (!into.some((w) => w.code === code)) into.push({ code, message });
    }
  }
}

/** The header value for a list of warnings: distinct codes, comma-separated (empty when none). */
export function warningsHeaderValue(warnings: readonly GatewayWarning[]): string {
  const codes = [...new Set(warnings.map((w) => w.code))];
  if (codes.length <= MAX_HEADER_CODES) return codes.join(",");
  return [...codes.slice(0, MAX_HEADER_CODES), `more:${codes.length - MAX_HEADER_CODES}`].join(",");
}

/** Field names come from clients: a code keeps letters, digits, `_`, `.` and `-` and stays short. */
function codeSafe(name: string): string {
  const safe = name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase().replace(/[^a-z0-9_.-]/g, "_");
  return safe.slice(0, 64) || "_";
}
