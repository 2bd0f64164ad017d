import type { DashboardContext } from "../../dashboard/context.ts";
import type { KeyGroupRecord } from "../../storage/mod.ts";
import type { GroupView } from "./contract.ts";

/** A key group with its count of active keys. */
export function groupView(group: KeyGroupRecord, gateway: DashboardContext): GroupView {
  return {
    id: group.id,
    name: group.name,
    rpm: group.limits.rpm,
    tpm: group.limits.tpm,
    max_parallel: group.limits.maxParallel,
    allowed_models: [...group.allowedModels],
    keys: gateway.state.keys.filter((k) => k.groupId === group.id && k.status === "active").length,
  };
}
