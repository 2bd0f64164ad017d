/** Pricing contract: the section, the view, and every pricing route's body and answer. */
import type { Done, Route } from "../../dashboard/contract/api.ts";

/** A price in the snake_case shape of the YAML file (USD per million tokens). */
export interface PriceView {
  readonly model: string;
  readonly input_per_mtok: number;
  readonly output_per_mtok: number;
  readonly cache_creation_per_mtok: number;
  readonly cache_read_per_mtok: number;
  /** Image models: USD per image by variant (`<quality>@<size>`, `<quality>`, `@<size>`, `*`). */
  readonly per_image?: Readonly<Record<string, number>>;
  /** Transcription models billed by duration: USD per second of audio. */
  readonly per_second?: number;
  /** Speech models: USD per million input characters. */
  readonly per_mchar?: number;
  /** Rerank models billed by search unit (Cohere): USD per search unit. */
  readonly per_search_unit?: number;
}

/** Builtin prices, overrides, and models used without a price. */
export interface PricingSection {
  readonly builtin: readonly PriceView[];
  readonly overrides: readonly PriceView[];
  readonly unpriced: readonly {
    readonly model: string;
    readonly requests: number;
    readonly input_tokens: number;
    readonly output_tokens: number;
  }[];
}

/** Body of `POST /pricing`: an override, created or replaced (cache rates default to 0). */
export type PriceInput = Omit<PriceView, "cache_creation_per_mtok" | "cache_read_per_mtok"> & {
  readonly cache_creation_per_mtok?: number;
  readonly cache_read_per_mtok?: number;
};

/** Answer of `POST /pricing`. */
export interface PriceSaved {
  readonly ok: true;
  readonly price: PriceView;
}

/** The pricing routes (`:model` URL-encoded; model ids hold slashes). */
export interface PricingApi {
  readonly "POST /pricing": Route<PriceInput, PriceSaved>;
  readonly "DELETE /pricing/:model": Route<undefined, Done>;
}
