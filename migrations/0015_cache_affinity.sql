-- Prompt-cache affinity: which account holds a conversation's cached prefix. The key is a SHA-256 of the
-- prefix and the cache key, never the key itself.
CREATE TABLE IF NOT EXISTS cache_affinity (
  key_hash TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  used_at INTEGER NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS cache_affinity_used_at ON cache_affinity (used_at);
