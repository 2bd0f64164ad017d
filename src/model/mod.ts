/** The neutral model: the one vocabulary every codec, router and executor shares. */
export * from "./wire_format.ts";
export * from "./extra.ts";
export * from "./parts.ts";
export * from "./request.ts";
export * from "./response.ts";
export * from "./usage.ts";
export * from "./finish.ts";
export * from "./stream_event.ts";
export * from "./errors.ts";
export * from "./tool_pairing.ts";
export * from "./warning.ts";
export * from "./embeddings.ts";
export * from "./rerank.ts";
export * from "./model_kind.ts";
export * from "./media.ts";
