import type { Finish } from "./finish.ts";
import type { ProviderFamily } from "./parts.ts";
import type { Usage } from "./usage.ts";

/** The kind of content a stream block carries. */
export type BlockKind = "text" | "reasoning" | "toolCall";

/**
 * Neutral stream events. Blocks open, grow and close; indexes are unique within one stream.
 * Decoders of formats without explicit blocks synthesise them; encoders of such formats ignore them.
 */
export type StreamEvent =
  | { readonly type: "start"; readonly id: string; readonly model: string; readonly created?: number }
  | {
    readonly type: "blockStart";
    readonly index: number;
    readonly kind: BlockKind;
    /** Tool call id (toolCall blocks). */
    readonly id?: string;
    /** Tool name (toolCall blocks). */
    readonly name?: string;
    /** Opaque redacted reasoning data (reasoning blocks). */
    readonly redactedData?: string;
    readonly family?: ProviderFamily;
  }
  | { readonly type: "textDelta"; readonly index: number; readonly text: string }
  | { readonly type: "argumentsDelta"; readonly index: number; readonly json: string }
  | { readonly type: "signatureDelta"; readonly index: number; readonly signature: string }
  | { readonly type: "blockEnd"; readonly index: number }
  | { readonly type: "usage"; readonly usage: Usage }
  | { readonly type: "finish"; readonly finish: Finish }
  | { readonly type: "error"; readonly status: number; readonly message: string; readonly kind: string };
