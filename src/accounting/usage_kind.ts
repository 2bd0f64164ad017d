/** The kinds of work a usage row can be, for analytics by kind (chat first: every row before 0031 is one). */
export const USAGE_KINDS = ["chat", "completion", "embedding", "image", "audio", "rerank"] as const;

/** One kind of work: what analytics groups and filters usage by. */
export type UsageKind = (typeof USAGE_KINDS)[number];

/**
 * The kind of an attempt from the surface it came in on and the surface's endpoint: the media and
 * embeddings dispatchers name their own surfaces (`images`, `audio`, `embeddings`, `rerank`); on a chat surface,
 * the legacy completions endpoint (`/v1/completions`) and Ollama's `/api/generate` are prompt completions.
 */
export function usageKindOf(clientFormat: string, endpoint: string | undefined): UsageKind {
  switch (clientFormat) {
    case "embeddings":
      return "embedding";
    case "images":
      return "image";
    case "audio":
      return "audio";
    case "rerank":
      return "rerank";
  }
  return endpoint === "completions" || (clientFormat === "local_runner" && endpoint === "generate")
    ? "completion"
    : "chat";
}

/** Whether `text` names a usage kind (a query parameter, say). */
export function isUsageKind(text: string): text is UsageKind {
  return (USAGE_KINDS as readonly string[]).includes(text);
}
