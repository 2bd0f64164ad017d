import type { DeclaredKinds } from "../model/model_kind.ts";

/** One configured provider account; several accounts may share a prefix. */
export interface Account {
  readonly id: string;
  readonly prefix: string;
  readonly apiType: string;
  /** Models the account lists; used for model listings, never to refuse a route. */
  readonly models: readonly string[];
  readonly enabled: boolean;
  /** Kinds the provider declared for some of its models (over what their names say). */
  readonly kinds?: DeclaredKinds;
}

/** A named, ordered list of `<prefix>/<model>` entries that clients send as one model name. */
export interface Combo {
  readonly name: string;
  readonly models: readonly string[];
}

/** One try of a request against one account. */
export interface Attempt {
  readonly account: Account;
  /** The model name sent upstream (the part after the first slash). */
  readonly upstreamModel: string;
  /** `<prefix>/<model>` with the canonical prefix; cost, usage and logs use it. */
  readonly routeModel: string;
}

/** How combos are expanded (the runtime setting `combo_strategy`). */
export type ComboStrategy = "fallback" | "round_robin" | "fusion";
