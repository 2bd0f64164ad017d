-- Subscription (OAuth) credentials: per-provider overrides of the kind's OAuth endpoints (JSON object),
-- each credential's non-secret state, and the leases that serialise refreshes across gateway processes.
ALTER TABLE providers ADD COLUMN oauth TEXT NOT NULL DEFAULT '{}';

-- Keyed by credential id ("provider:<id>", "inventory:<key id>"). No foreign key on purpose: a config
-- reset deletes and re-inserts providers, and the spent list must survive it. `spent` holds keyed
-- fingerprints (never the tokens) of refresh tokens already exchanged: a write of a blob that carries
-- one of them is older than the stored credential and keeps the stored one.
CREATE TABLE IF NOT EXISTS credential_state (
  credential_id TEXT PRIMARY KEY,
  spent TEXT NOT NULL DEFAULT '[]',
  last_refresh_at INTEGER,
  last_error TEXT,
  last_error_at INTEGER
) STRICT;

-- One row per lease name (an OAuth client): the process holding it may spend refresh tokens of that
-- client; a crashed holder's lease expires at until_ms.
CREATE TABLE IF NOT EXISTS oauth_leases (
  name TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  until_ms INTEGER NOT NULL
) STRICT;
