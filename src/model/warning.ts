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
  readonly detail?: Readonly<Record<string, string | number | boolean>>;
}
