/** Dashboard contract, Tools screen: base URLs and one setup card per client. */
import type { ModelKind } from "../../model/model_kind.ts";

/** One client's setup card. */
export interface ToolCard {
  readonly id: string;
  readonly title: string;
  readonly protocol: string;
  readonly env: readonly { readonly name: string; readonly value: string }[];
  readonly snippet:
    | { readonly language: string; readonly path: string | null; readonly content: string }
    | null;
  readonly notes: readonly string[];
}

/** Base URLs, key placeholder, an example model and one setup card per client. */
export interface ToolsSection {
  readonly base_url: string;
  readonly base_url_v1: string;
  readonly require_api_key: boolean;
  readonly key_placeholder: string;
  /** The example model every card is written with; the screen swaps in the model picked. */
  readonly example_model: string;
  /** Gateway ids a client can ask for (enabled providers' models, then combos): the model picker's list. */
  readonly models: readonly string[];
  /** What each of `models` makes (`/v1/models` `kind`): the Playground offers the request kinds it can serve. */
  readonly model_kinds: Readonly<Record<string, ModelKind>>;
  readonly cards: readonly ToolCard[];
}
