import type { NeutralRequest, ProviderFamily } from "../model/mod.ts";

/** The token savers, by the names the dashboard and the stats use. */
export type SaverName = "rtk" | "caveman" | "ponytail" | "headroom";

/** The order savers always run in: the external compressor first, then the local ones. */
export const SAVER_ORDER: readonly SaverName[] = ["headroom", "rtk", "caveman", "ponytail"];

/** What a saver may know about where the request goes (savers run once, before routing). */
export interface SaverContext {
  readonly upstreamFamily?: ProviderFamily;
}

/**
 * One token saver. `apply` returns the very same object when it changed nothing, so the pipeline
 * can tell "unchanged" apart without comparing whole requests.
 */
export interface Saver {
  readonly name: SaverName;
  apply(request: NeutralRequest, ctx: SaverContext): NeutralRequest | Promise<NeutralRequest>;
}

/** Instruction strength for the prompt savers. */
export type SaverLevel = "lite" | "full" | "ultra";
