/**
 * Something a translation, an adjustment or a saver could not keep, created where the loss happens and
 * carried beside the result (response header, request log, traces, the WebSocket transport). Never parsed
 * back out of prose: the code is the contract (docs/warnings.md), the message is for people.
 */
export interface GatewayWarning {
  /** `<kind>:<subject>`, e.g. `dropped_field:store`; stable and documented in docs/warnings.md. */
  readonly code: string;
  /** One sentence saying what was lost or changed and why. */
  readonly message: string;
  /** Where useful: the field, part or value concerned (e.g. `{field: "top_k"}`). */
  readonly detail?: WarningDetail;
}

/** The facts beside a warning's sentence (a field's own name, a tool's name, a count). */
export type WarningDetail = Readonly<Record<string, string | number | boolean>>;

/**
 * Every code with a fixed subject, as documented in docs/warnings.md. The only other codes are
 * `dropped_field:<name>` for a field the client's own format kept verbatim (see `droppedField`).
 */
export const WARNING_CODES = [
  "dropped_field:top_k",
  "dropped_field:top_p",
  "dropped_field:seed",
  "dropped_field:temperature",
  "dropped_field:presence_penalty",
  "dropped_field:frequency_penalty",
  "dropped_field:stop",
  "dropped_field:task_type",
  "dropped_field:title",
  "dropped_field:truncate",
  "dropped_field:user",
  "dropped_field:thinking",
  "dropped_field:tool_choice",
  "dropped_field:cache_control",
  "dropped_field:image_detail",
  "dropped_field:tool_error",
  "dropped_part:image",
  "dropped_part:reasoning",
  "dropped_part:redacted_reasoning",
  "dropped_part:signature",
  "dropped_part:tool_call",
  "dropped_part:misplaced",
  "changed_part:image_not_fetched",
  "changed_part:signature",
  "changed_field:max_tokens",
  "changed_field:thinking_budget",
  "changed_field:reasoning_budget",
  "changed_field:stop",
  "changed_field:tool_arguments",
  "changed_field:thinking",
  "changed_field:tool_result_name",
  "changed_field:documents",
] as const;

/** A warning code with a fixed subject; a typo in a producer is a type error, not a new public code. */
export type WarningCode = typeof WARNING_CODES[number];

/** A warning with a fixed code, created where the loss happens. */
export function warning(code: WarningCode, message: string, detail?: WarningDetail): GatewayWarning {
  return detail === undefined ? { code, message } : { code, message, detail };
}

/**
 * A warning for a field named by the client's own format (kept verbatim, or an upstream's body field):
 * `dropped_field:<name>`, the name made header-safe; `detail.field` keeps the name as it was.
 */
export function droppedField(name: string, message: string): GatewayWarning {
  return { code: `dropped_field:${codeSafe(name)}`, message, detail: { field: name } };
}

/** Adds warnings to `into`, one per code: the first warning of a code wins (headers list codes once). */
export function addWarnings(into: GatewayWarning[], warnings: readonly GatewayWarning[]): void {
  for (const w of warnings) {
    if (!into.some((kept) => kept.code === w.code)) into.push(w);
  }
}

/** Field names come from clients: a code keeps letters, digits, `_`, `.` and `-` and stays short. */
function codeSafe(name: string): string {
  const safe = name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase().replace(/[^a-z0-9_.-]/g, "_");
  return safe.slice(0, 64) || "_";
}
