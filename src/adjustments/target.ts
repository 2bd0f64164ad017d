import type { UpstreamFormat } from "../model/mod.ts";
import type { ModelCapabilities } from "./capabilities.ts";

/** The client programs the gateway adapts to. */
export type ClientKind = "claude_code" | "codex" | "gemini_cli" | "other";

/** What one attempt targets: the facts per-attempt adjustments decide on. */
export interface AdjustTarget {
  readonly upstreamFormat: UpstreamFormat;
  /** The upstream model name (without the gateway prefix). */
  readonly model: string;
  readonly capabilities: ModelCapabilities;
  readonly clientKind: ClientKind;
  /** The provider runs on this machine or network (images on private addresses may be fetched). */
  readonly providerIsLocal: boolean;
  /** The upstream cannot fetch image URLs (the Codex backend): images are inlined whatever the format. */
  readonly inlineImagesOnly?: boolean;
}
