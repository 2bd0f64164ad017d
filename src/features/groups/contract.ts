/** Key groups contract: the view and every group route's body and answer. */
import type { Route } from "../../dashboard/contract/api.ts";

/** A key group as the dashboard shows it, with how many active keys it holds. */
export interface GroupView {
  readonly id: number;
  readonly name: string;
  readonly rpm: number | null;
  readonly tpm: number | null;
  readonly max_parallel: number | null;
  readonly allowed_models: readonly string[];
  readonly keys: number;
}

/** Body of a group create; on update every field is optional. */
export interface GroupInputBody {
  readonly name: string;
  readonly rpm?: number | null;
  readonly tpm?: number | null;
  readonly max_parallel?: number | null;
  readonly allowed_models?: readonly string[] | string;
}

/** Answer of a group change. */
export interface GroupSaved {
  readonly ok: true;
  readonly group: GroupView;
}

/** The key group routes. */
export interface GroupsApi {
  readonly "POST /groups": Route<GroupInputBody, GroupSaved>;
  readonly "POST /groups/:id": Route<Partial<GroupInputBody>, GroupSaved>;
  readonly "DELETE /groups/:id": Route<undefined, GroupSaved>;
}
