-- Initial schema. Timestamps are integer Unix milliseconds (UTC). Every table is STRICT.

CREATE TABLE IF NOT EXISTS api_keys (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  key_hash TEXT NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'revoked')),
  can_login INTEGER NOT NULL DEFAULT 1,
  allowed_models TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

CREATE TABLE IF NOT EXISTS providers (
  id TEXT PRIMARY KEY,
  prefix TEXT NOT NULL,
  api_type TEXT NOT NULL,
  base_url TEXT NOT NULL,
  api_key TEXT NOT NULL DEFAULT '',
  models TEXT NOT NULL DEFAULT '[]',
  enabled INTEGER NOT NULL DEFAULT 1,
  position INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

CREATE TABLE IF NOT EXISTS combos (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  models TEXT NOT NULL DEFAULT '[]',
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

CREATE TABLE IF NOT EXISTS settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;

CREATE TABLE IF NOT EXISTS pricing_overrides (
  model TEXT PRIMARY KEY,
  input_per_mtok REAL NOT NULL,
  output_per_mtok REAL NOT NULL,
  cache_creation_per_mtok REAL NOT NULL DEFAULT 0,
  cache_read_per_mtok REAL NOT NULL DEFAULT 0,
  updated_at INTEGER NOT NULL DEFAULT 0
) STRICT;

CREATE TABLE IF NOT EXISTS usage (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  ts INTEGER NOT NULL,
  client_format TEXT NOT NULL DEFAULT '',
  request_model TEXT NOT NULL DEFAULT '',
  model TEXT NOT NULL DEFAULT '',
  provider_id TEXT NOT NULL DEFAULT '',
  account_id TEXT NOT NULL DEFAULT '',
  client_key_id INTEGER,
  client_key_label TEXT NOT NULL DEFAULT '',
  status INTEGER NOT NULL,
  input_tokens INTEGER NOT NULL DEFAULT 0,
  cache_read_tokens INTEGER NOT NULL DEFAULT 0,
  cache_creation_tokens INTEGER NOT NULL DEFAULT 0,
  output_tokens INTEGER NOT NULL DEFAULT 0,
  reasoning_tokens INTEGER NOT NULL DEFAULT 0,
  estimated INTEGER NOT NULL DEFAULT 0,
  cost REAL NOT NULL DEFAULT 0,
  priced INTEGER NOT NULL DEFAULT 1,
  latency_ms INTEGER NOT NULL DEFAULT 0,
  streamed INTEGER NOT NULL DEFAULT 0,
  error TEXT NOT NULL DEFAULT ''
) STRICT;
CREATE INDEX IF NOT EXISTS usage_ts ON usage (ts);
CREATE INDEX IF NOT EXISTS usage_key_ts ON usage (client_key_id, ts);
CREATE INDEX IF NOT EXISTS usage_model_ts ON usage (model, ts);
CREATE INDEX IF NOT EXISTS usage_provider_ts ON usage (provider_id, ts);

CREATE TABLE IF NOT EXISTS budgets (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  key_id INTEGER REFERENCES api_keys (id) ON DELETE CASCADE,
  daily_limit REAL NOT NULL,
  warn_pct REAL NOT NULL DEFAULT 80,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE UNIQUE INDEX IF NOT EXISTS budgets_scope ON budgets (ifnull(key_id, 0));

CREATE TABLE IF NOT EXISTS cooldowns (
  account_id TEXT PRIMARY KEY,
  expires_at INTEGER NOT NULL,
  reason TEXT NOT NULL DEFAULT '',
  backoff_level INTEGER NOT NULL DEFAULT 0
) STRICT;

CREATE TABLE IF NOT EXISTS request_logs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  ts INTEGER NOT NULL,
  client_format TEXT NOT NULL DEFAULT '',
  model TEXT NOT NULL DEFAULT '',
  provider_id TEXT NOT NULL DEFAULT '',
  account_id TEXT NOT NULL DEFAULT '',
  status INTEGER NOT NULL,
  latency_ms INTEGER NOT NULL DEFAULT 0,
  streamed INTEGER NOT NULL DEFAULT 0,
  user TEXT NOT NULL DEFAULT '',
  request_body TEXT NOT NULL DEFAULT '',
  response_body TEXT NOT NULL DEFAULT '',
  error TEXT NOT NULL DEFAULT ''
) STRICT;
CREATE INDEX IF NOT EXISTS request_logs_ts ON request_logs (ts);

CREATE TABLE IF NOT EXISTS inventory_providers (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  display_name TEXT NOT NULL DEFAULT '',
  base_url TEXT NOT NULL DEFAULT '',
  auth_type TEXT NOT NULL DEFAULT 'api_key',
  models_endpoint TEXT NOT NULL DEFAULT '',
  is_active INTEGER NOT NULL DEFAULT 1,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

CREATE TABLE IF NOT EXISTS upstream_keys (
  id TEXT PRIMARY KEY,
  provider_id TEXT NOT NULL REFERENCES inventory_providers (id) ON DELETE CASCADE,
  key_label TEXT NOT NULL DEFAULT '',
  key_value TEXT NOT NULL,
  key_hash TEXT NOT NULL,
  key_masked TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL DEFAULT 'pending_validation',
  priority INTEGER NOT NULL DEFAULT 0,
  last_checked_at INTEGER,
  last_error TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS upstream_keys_provider ON upstream_keys (provider_id);
CREATE UNIQUE INDEX IF NOT EXISTS upstream_keys_hash ON upstream_keys (key_hash);

CREATE TABLE IF NOT EXISTS upstream_models (
  id TEXT PRIMARY KEY,
  upstream_key_id TEXT NOT NULL REFERENCES upstream_keys (id) ON DELETE CASCADE,
  model_id TEXT NOT NULL,
  context_window INTEGER,
  is_available INTEGER NOT NULL DEFAULT 1,
  created_at INTEGER NOT NULL
) STRICT;

CREATE TABLE IF NOT EXISTS upstream_key_history (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  upstream_key_id TEXT NOT NULL,
  previous_status TEXT NOT NULL DEFAULT '',
  new_status TEXT NOT NULL,
  notes TEXT NOT NULL DEFAULT '',
  changed_at INTEGER NOT NULL
) STRICT;

CREATE TABLE IF NOT EXISTS dashboard_sessions (
  token_hash TEXT PRIMARY KEY,
  key_id INTEGER,
  static_key_hash TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
) STRICT;

CREATE TABLE IF NOT EXISTS saver_stats (
  saver TEXT PRIMARY KEY,
  requests INTEGER NOT NULL DEFAULT 0,
  bytes_before INTEGER NOT NULL DEFAULT 0,
  bytes_after INTEGER NOT NULL DEFAULT 0,
  errors INTEGER NOT NULL DEFAULT 0
) STRICT;

