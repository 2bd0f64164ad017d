/** Dashboard contract, Tools screen: base URLs and one setup card per client. */

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
  readonly example_model: string;
  readonly cards: readonly ToolCard[];
}
