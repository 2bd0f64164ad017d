-- The gateway's schema on PostgreSQL: the same tables and columns as the SQLite migrations up to
-- 0018 (a `rowid` column where the repositories order by SQLite's implicit one), in PostgreSQL's types (BIGINT for ids, epoch milliseconds and counters; DOUBLE PRECISION for money;
-- flags stay 0/1 integers so the repositories read the same values from both databases).
CREATE TABLE IF NOT EXISTS api_keys (
  id BIGSERIAL PRIMARY KEY,
  name TEXT NOT NULL,
  key_hash TEXT NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'revoked')),
  can_login BIGINT NOT NULL DEFAULT 1,
  allowed_models TEXT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  role TEXT CHECK (role IN ('admin', 'viewer'))
);
CREATE TABLE IF NOT EXISTS providers (
  id TEXT PRIMARY KEY,
  prefix TEXT NOT NULL,
  api_type TEXT NOT NULL,
  base_url TEXT NOT NULL,
  api_key TEXT NOT NULL DEFAULT '',
  models TEXT NOT NULL DEFAULT '[]',
  enabled BIGINT NOT NULL DEFAULT 1,
  position BIGINT NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  capabilities TEXT NOT NULL DEFAULT '{}',
  oauth TEXT NOT NULL DEFAULT '{}',
  quota TEXT NOT NULL DEFAULT '{}',
  -- SQLite's implicit insertion order, which provider ordering breaks ties with.
  rowid BIGSERIAL
);
CREATE TABLE IF NOT EXISTS combos (
  id BIGSERIAL PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  models TEXT NOT NULL DEFAULT '[]',
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS pricing_overrides (
  model TEXT PRIMARY KEY,
  input_per_mtok DOUBLE PRECISION NOT NULL,
  output_per_mtok DOUBLE PRECISION NOT NULL,
  cache_creation_per_mtok DOUBLE PRECISION NOT NULL DEFAULT 0,
  cache_read_per_mtok DOUBLE PRECISION NOT NULL DEFAULT 0,
  updated_at BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS usage (
  id BIGSERIAL PRIMARY KEY,
  ts BIGINT NOT NULL,
  client_format TEXT NOT NULL DEFAULT '',
  request_model TEXT NOT NULL DEFAULT '',
  model TEXT NOT NULL DEFAULT '',
  provider_id TEXT NOT NULL DEFAULT '',
  account_id TEXT NOT NULL DEFAULT '',
  client_key_id BIGINT,
  client_key_label TEXT NOT NULL DEFAULT '',
  status BIGINT NOT NULL,
  input_tokens BIGINT NOT NULL DEFAULT 0,
  cache_read_tokens BIGINT NOT NULL DEFAULT 0,
  cache_creation_tokens BIGINT NOT NULL DEFAULT 0,
  output_tokens BIGINT NOT NULL DEFAULT 0,
  reasoning_tokens BIGINT NOT NULL DEFAULT 0,
  estimated BIGINT NOT NULL DEFAULT 0,
  cost DOUBLE PRECISION NOT NULL DEFAULT 0,
  priced BIGINT NOT NULL DEFAULT 1,
  latency_ms BIGINT NOT NULL DEFAULT 0,
  streamed BIGINT NOT NULL DEFAULT 0,
  error TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS usage_ts ON usage (ts);
CREATE TABLE IF NOT EXISTS budgets (
  id BIGSERIAL PRIMARY KEY,
  key_id BIGINT REFERENCES api_keys (id) ON DELETE CASCADE,
  daily_limit DOUBLE PRECISION NOT NULL,
  warn_pct DOUBLE PRECISION NOT NULL DEFAULT 80,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS budgets_scope ON budgets (coalesce(key_id, 0));
CREATE TABLE IF NOT EXISTS cooldowns (
  account_id TEXT PRIMARY KEY,
  expires_at BIGINT NOT NULL,
  reason TEXT NOT NULL DEFAULT '',
  backoff_level BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS request_logs (
  id BIGSERIAL PRIMARY KEY,
  ts BIGINT NOT NULL,
  client_format TEXT NOT NULL DEFAULT '',
  model TEXT NOT NULL DEFAULT '',
  provider_id TEXT NOT NULL DEFAULT '',
  account_id TEXT NOT NULL DEFAULT '',
  status BIGINT NOT NULL,
  latency_ms BIGINT NOT NULL DEFAULT 0,
  streamed BIGINT NOT NULL DEFAULT 0,
  "user" TEXT NOT NULL DEFAULT '',
  request_body TEXT NOT NULL DEFAULT '',
  response_body TEXT NOT NULL DEFAULT '',
  error TEXT NOT NULL DEFAULT '',
  request_truncated BIGINT NOT NULL DEFAULT 0,
  response_truncated BIGINT NOT NULL DEFAULT 0,
  warnings TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX IF NOT EXISTS request_logs_ts_id ON request_logs (ts, id);
CREATE TABLE IF NOT EXISTS inventory_providers (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  display_name TEXT NOT NULL DEFAULT '',
  base_url TEXT NOT NULL DEFAULT '',
  auth_type TEXT NOT NULL DEFAULT 'api_key',
  models_endpoint TEXT NOT NULL DEFAULT '',
  is_active BIGINT NOT NULL DEFAULT 1,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS upstream_keys (
  id TEXT PRIMARY KEY,
  provider_id TEXT NOT NULL REFERENCES inventory_providers (id) ON DELETE CASCADE,
  key_label TEXT NOT NULL DEFAULT '',
  key_value TEXT NOT NULL,
  key_hash TEXT NOT NULL,
  key_masked TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL DEFAULT 'pending_validation',
  priority BIGINT NOT NULL DEFAULT 0,
  last_checked_at BIGINT,
  last_error TEXT NOT NULL DEFAULT '',
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS upstream_keys_provider ON upstream_keys (provider_id);
CREATE UNIQUE INDEX IF NOT EXISTS upstream_keys_hash ON upstream_keys (key_hash);
CREATE TABLE IF NOT EXISTS upstream_models (
  id TEXT PRIMARY KEY,
  upstream_key_id TEXT NOT NULL REFERENCES upstream_keys (id) ON DELETE CASCADE,
  model_id TEXT NOT NULL,
  context_window BIGINT,
  is_available BIGINT NOT NULL DEFAULT 1,
  created_at BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS upstream_key_history (
  id BIGSERIAL PRIMARY KEY,
  upstream_key_id TEXT NOT NULL,
  previous_status TEXT NOT NULL DEFAULT '',
  new_status TEXT NOT NULL,
  notes TEXT NOT NULL DEFAULT '',
  changed_at BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS dashboard_sessions (
  token_hash TEXT PRIMARY KEY,
  key_id BIGINT,
  static_key_hash TEXT,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS dashboard_sessions_expiry ON dashboard_sessions (expires_at);
CREATE TABLE IF NOT EXISTS saver_stats (
  saver TEXT PRIMARY KEY,
  requests BIGINT NOT NULL DEFAULT 0,
  bytes_before BIGINT NOT NULL DEFAULT 0,
  bytes_after BIGINT NOT NULL DEFAULT 0,
  errors BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS usage_daily (
  day BIGINT NOT NULL,
  model TEXT NOT NULL,
  provider_id TEXT NOT NULL,
  account_id TEXT NOT NULL,
  client_key_id BIGINT NOT NULL,
  client_key_label TEXT NOT NULL,
  requests BIGINT NOT NULL DEFAULT 0,
  ok_requests BIGINT NOT NULL DEFAULT 0,
  client_errors BIGINT NOT NULL DEFAULT 0,
  server_errors BIGINT NOT NULL DEFAULT 0,
  input_tokens BIGINT NOT NULL DEFAULT 0,
  output_tokens BIGINT NOT NULL DEFAULT 0,
  cache_read_tokens BIGINT NOT NULL DEFAULT 0,
  cache_creation_tokens BIGINT NOT NULL DEFAULT 0,
  cost DOUBLE PRECISION NOT NULL DEFAULT 0,
  unpriced_requests BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (day, model, provider_id, account_id, client_key_id, client_key_label)
);
CREATE TABLE IF NOT EXISTS credential_state (
  credential_id TEXT PRIMARY KEY,
  spent TEXT NOT NULL DEFAULT '[]',
  last_refresh_at BIGINT,
  last_error TEXT,
  last_error_at BIGINT
);
CREATE TABLE IF NOT EXISTS oauth_leases (
  name TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  until_ms BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS cache_affinity (
  key_hash TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  used_at BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS cache_affinity_used_at ON cache_affinity (used_at);
CREATE TABLE IF NOT EXISTS turn_tokens (
  key TEXT PRIMARY KEY,
  tokens TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  rowid BIGSERIAL
);
CREATE INDEX IF NOT EXISTS turn_tokens_created ON turn_tokens (created_at);
CREATE TABLE IF NOT EXISTS cluster_events (
  id BIGSERIAL PRIMARY KEY,
  origin TEXT NOT NULL,
  kind TEXT NOT NULL,
  payload TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS cluster_members (
  origin TEXT PRIMARY KEY,
  label TEXT NOT NULL,
  seen_at BIGINT NOT NULL,
  wants TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS config_generation (
  id BIGINT PRIMARY KEY CHECK (id = 1),
  value BIGINT NOT NULL
);
INSERT INTO config_generation (id, value) VALUES (1, 0) ON CONFLICT DO NOTHING;

-- Configuration changes bump the generation and wake every instance (LISTEN gateway_changes) at once.
CREATE OR REPLACE FUNCTION gateway_config_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE config_generation SET value = value + 1 WHERE id = 1;
  PERFORM pg_notify('gateway_changes', 'config');
  RETURN NULL;
END $$;
CREATE OR REPLACE FUNCTION gateway_cluster_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('gateway_changes', 'event');
  RETURN NULL;
END $$;
DO $$
DECLARE t TEXT;
BEGIN
  FOREACH t IN ARRAY ARRAY['providers', 'combos', 'api_keys', 'settings', 'pricing_overrides', 'budgets',
      'upstream_keys'] LOOP
    EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', 'cfg_' || t, t);
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE ON %I '
      || 'FOR EACH STATEMENT EXECUTE FUNCTION gateway_config_changed()', 'cfg_' || t, t);
  END LOOP;
END $$;
DROP TRIGGER IF EXISTS cluster_event_notify ON cluster_events;
CREATE TRIGGER cluster_event_notify AFTER INSERT ON cluster_events
  FOR EACH STATEMENT EXECUTE FUNCTION gateway_cluster_event();
