/** Combos contract: the section, the view, and every combo route's body and answer. */
import type { Done, Route } from "../../dashboard/contract/api.ts";

/** A combo with the members no enabled provider serves. */
export interface ComboView {
  readonly id: number;
  readonly name: string;
  readonly models: readonly string[];
  readonly unroutable: readonly string[];
}

/** Combos, the combo strategy, and the routable ids to pick members from. */
export interface CombosSection {
  readonly combos: readonly ComboView[];
  readonly strategy: string;
  readonly sticky_limit: number;
  readonly models: readonly string[];
}

/** Body of `POST /combos`: members as `<prefix>/<model>`, a list or one string split at commas. */
export interface ComboInput {
  readonly name: string;
  readonly models: readonly string[] | string;
}

/** Answer of a combo change. */
export interface ComboSaved {
  readonly ok: true;
  readonly combo: ComboView;
}

/** The combos routes (`:id` is the combo's id or its name). */
export interface CombosApi {
  readonly "POST /combos": Route<ComboInput, ComboSaved>;
  readonly "PUT /combos/:id": Route<Partial<ComboInput>, ComboSaved>;
  readonly "DELETE /combos/:id": Route<undefined, Done>;
}
