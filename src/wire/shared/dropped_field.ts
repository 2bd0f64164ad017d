import type { GatewayWarning } from "../../model/mod.ts";

/** The `dropped_field:<field>` warning for a request field the target format has no place for. */
export function droppedField(field: string, target: string, why?: string): GatewayWarning {
  const reason = why === undefined ? `${target} has no such field` : why;
  return {
    code: `dropped_field:${field}`,
    message: `${field} was not sent: ${reason}.`,
    detail: { field, target },
  };
}
