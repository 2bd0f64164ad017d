-- Inventory keys become routable accounts (SQLite migration 0012): what a check learns about a key, and the
-- switches that take it out of routing (archive).
ALTER TABLE upstream_keys ADD COLUMN IF NOT EXISTS custom_base_url TEXT NOT NULL DEFAULT '';
ALTER TABLE upstream_keys ADD COLUMN IF NOT EXISTS is_valid BIGINT NOT NULL DEFAULT 0;
ALTER TABLE upstream_keys ADD COLUMN IF NOT EXISTS is_usable BIGINT NOT NULL DEFAULT 0;
ALTER TABLE upstream_keys ADD COLUMN IF NOT EXISTS usability_status TEXT NOT NULL DEFAULT 'unknown';
ALTER TABLE upstream_keys ADD COLUMN IF NOT EXISTS usability_note TEXT NOT NULL DEFAULT '';
ALTER TABLE upstream_keys ADD COLUMN IF NOT EXISTS health_status TEXT NOT NULL DEFAULT 'healthy';
ALTER TABLE upstream_keys ADD COLUMN IF NOT EXISTS credits_remaining DOUBLE PRECISION;
ALTER TABLE upstream_keys ADD COLUMN IF NOT EXISTS credits_total DOUBLE PRECISION;
ALTER TABLE upstream_keys ADD COLUMN IF NOT EXISTS credits_used DOUBLE PRECISION;
ALTER TABLE upstream_keys ADD COLUMN IF NOT EXISTS rate_limit_rpm BIGINT;
ALTER TABLE upstream_keys ADD COLUMN IF NOT EXISTS rate_limit_tpm BIGINT;
ALTER TABLE upstream_keys ADD COLUMN IF NOT EXISTS rate_limit_rpd BIGINT;
ALTER TABLE upstream_keys ADD COLUMN IF NOT EXISTS daily_credit_limit DOUBLE PRECISION;
ALTER TABLE upstream_keys ADD COLUMN IF NOT EXISTS source_node TEXT NOT NULL DEFAULT '';
ALTER TABLE upstream_keys ADD COLUMN IF NOT EXISTS metadata TEXT NOT NULL DEFAULT '{}';
ALTER TABLE upstream_keys ADD COLUMN IF NOT EXISTS is_archived BIGINT NOT NULL DEFAULT 0;
CREATE INDEX IF NOT EXISTS upstream_keys_status ON upstream_keys (status);
ALTER TABLE upstream_key_history ADD COLUMN IF NOT EXISTS credits_remaining DOUBLE PRECISION;
CREATE INDEX IF NOT EXISTS upstream_key_history_key ON upstream_key_history (upstream_key_id, id);
CREATE INDEX IF NOT EXISTS upstream_models_key ON upstream_models (upstream_key_id);
