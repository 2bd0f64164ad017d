-- Opaque upstream tokens of assistant tool calls (Gemini thought signatures, signed Anthropic thinking,
-- encrypted Responses reasoning) that a client's format cannot carry back, keyed by the tool call they
-- belong to, so a client replaying history after a restart still gets them restored (see
-- src/gateway/turn_tokens.ts). Rows are written in batches and pruned by age at start.
CREATE TABLE IF NOT EXISTS turn_tokens (
  key TEXT PRIMARY KEY,
  tokens TEXT NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS turn_tokens_created ON turn_tokens (created_at);
