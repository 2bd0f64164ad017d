import { droppedField as fieldWarning, type GatewayWarning } from "../../model/mod.ts";

/**
 * The `dropped_field:<field>` warning for a request field the target format has no place for. Field names can
 * come from clients, so the code is made header-safe as every client-named code is (`detail.field` keeps the
 * name as it was).
 */
export function droppedField(field: string, target: string, why?: string): GatewayWarning {
  const reason = why === undefined ? `${target} has no such field` : why;
  const { code } = fieldWarning(field, "");
  return { code, message: `${field} was not sent: ${reason}.`, detail: { field, target } };
}
