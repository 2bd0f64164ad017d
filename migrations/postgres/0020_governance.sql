-- Governance (issue 27) on PostgreSQL: the same tables and columns as SQLite migration 0020_governance.sql
-- (comments there).
CREATE TABLE IF NOT EXISTS key_groups (
  id BIGSERIAL PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  rpm BIGINT,
  tpm BIGINT,
  max_parallel BIGINT,
  allowed_models TEXT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
DROP TRIGGER IF EXISTS cfg_key_groups ON key_groups;
CREATE TRIGGER cfg_key_groups AFTER INSERT OR UPDATE OR DELETE ON key_groups
  FOR EACH STATEMENT EXECUTE FUNCTION gateway_config_changed();

ALTER TABLE api_keys ADD COLUMN IF NOT EXISTS group_id BIGINT REFERENCES key_groups (id) ON DELETE SET NULL;
ALTER TABLE api_keys ADD COLUMN IF NOT EXISTS rpm BIGINT;
ALTER TABLE api_keys ADD COLUMN IF NOT EXISTS tpm BIGINT;
ALTER TABLE api_keys ADD COLUMN IF NOT EXISTS max_parallel BIGINT;
ALTER TABLE api_keys ADD COLUMN IF NOT EXISTS expires_at BIGINT;
ALTER TABLE api_keys ADD COLUMN IF NOT EXISTS previous_key_hash TEXT;
ALTER TABLE api_keys ADD COLUMN IF NOT EXISTS previous_valid_until BIGINT;
CREATE INDEX IF NOT EXISTS api_keys_previous_hash ON api_keys (previous_key_hash);
CREATE TABLE IF NOT EXISTS api_key_last_used (
  key_id BIGINT PRIMARY KEY REFERENCES api_keys (id) ON DELETE CASCADE,
  last_used_at BIGINT NOT NULL
);

ALTER TABLE budgets ADD COLUMN IF NOT EXISTS group_id BIGINT REFERENCES key_groups (id) ON DELETE CASCADE;
ALTER TABLE budgets ADD COLUMN IF NOT EXISTS period TEXT NOT NULL DEFAULT 'day';
ALTER TABLE budgets ADD COLUMN IF NOT EXISTS rolling_ms BIGINT;
ALTER TABLE budgets ADD COLUMN IF NOT EXISTS hard_stop BIGINT NOT NULL DEFAULT 1;
ALTER TABLE budgets ADD COLUMN IF NOT EXISTS webhook_url TEXT;
ALTER TABLE budgets ADD COLUMN IF NOT EXISTS webhook_secret TEXT;
DROP INDEX IF EXISTS budgets_scope;
CREATE UNIQUE INDEX IF NOT EXISTS budgets_scope_period
  ON budgets (coalesce(key_id, 0), coalesce(group_id, 0), period, coalesce(rolling_ms, 0));

CREATE TABLE IF NOT EXISTS budget_alerts (
  budget_id BIGINT NOT NULL,
  window_start BIGINT NOT NULL,
  level TEXT NOT NULL CHECK (level IN ('warning', 'exceeded')),
  spent DOUBLE PRECISION NOT NULL,
  budget_limit DOUBLE PRECISION NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (budget_id, window_start, level)
);
CREATE INDEX IF NOT EXISTS budget_alerts_created ON budget_alerts (created_at);

CREATE TABLE IF NOT EXISTS audit_log (
  id BIGSERIAL PRIMARY KEY,
  ts BIGINT NOT NULL,
  actor TEXT NOT NULL,
  actor_kind TEXT NOT NULL,
  address TEXT NOT NULL DEFAULT '',
  action TEXT NOT NULL,
  target TEXT NOT NULL DEFAULT '',
  before_json TEXT,
  after_json TEXT
);
CREATE INDEX IF NOT EXISTS audit_log_ts ON audit_log (ts, id);
CREATE INDEX IF NOT EXISTS audit_log_action ON audit_log (action, ts);
CREATE OR REPLACE FUNCTION gateway_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only';
END $$;
DROP TRIGGER IF EXISTS audit_log_append_only ON audit_log;
CREATE TRIGGER audit_log_append_only BEFORE UPDATE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION gateway_audit_append_only();

CREATE TABLE IF NOT EXISTS rate_counts (
  scope TEXT NOT NULL,
  origin TEXT NOT NULL,
  requests BIGINT NOT NULL DEFAULT 0,
  tokens BIGINT NOT NULL DEFAULT 0,
  in_flight BIGINT NOT NULL DEFAULT 0,
  share_requests DOUBLE PRECISION NOT NULL DEFAULT 0,
  share_tokens DOUBLE PRECISION NOT NULL DEFAULT 0,
  share_slots DOUBLE PRECISION NOT NULL DEFAULT 0,
  level_requests DOUBLE PRECISION NOT NULL DEFAULT 0,
  level_tokens DOUBLE PRECISION NOT NULL DEFAULT 0,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (scope, origin)
);
CREATE INDEX IF NOT EXISTS rate_counts_updated ON rate_counts (updated_at);
