-- Inventory keys become routable accounts: what a check learns about a key, and the switches that take
-- it out of routing (archive). Additive: every column has a default, so existing rows stay valid.
ALTER TABLE upstream_keys ADD COLUMN custom_base_url TEXT NOT NULL DEFAULT '';
ALTER TABLE upstream_keys ADD COLUMN is_valid INTEGER NOT NULL DEFAULT 0;
ALTER TABLE upstream_keys ADD COLUMN is_usable INTEGER NOT NULL DEFAULT 0;
ALTER TABLE upstream_keys ADD COLUMN usability_status TEXT NOT NULL DEFAULT 'unknown';
ALTER TABLE upstream_keys ADD COLUMN usability_note TEXT NOT NULL DEFAULT '';
ALTER TABLE upstream_keys ADD COLUMN health_status TEXT NOT NULL DEFAULT 'healthy';
ALTER TABLE upstream_keys ADD COLUMN credits_remaining REAL;
ALTER TABLE upstream_keys ADD COLUMN credits_total REAL;
ALTER TABLE upstream_keys ADD COLUMN credits_used REAL;
ALTER TABLE upstream_keys ADD COLUMN rate_limit_rpm INTEGER;
ALTER TABLE upstream_keys ADD COLUMN rate_limit_tpm INTEGER;
ALTER TABLE upstream_keys ADD COLUMN rate_limit_rpd INTEGER;
ALTER TABLE upstream_keys ADD COLUMN daily_credit_limit REAL;
ALTER TABLE upstream_keys ADD COLUMN source_node TEXT NOT NULL DEFAULT '';
ALTER TABLE upstream_keys ADD COLUMN metadata TEXT NOT NULL DEFAULT '{}';
ALTER TABLE upstream_keys ADD COLUMN is_archived INTEGER NOT NULL DEFAULT 0;
CREATE INDEX IF NOT EXISTS upstream_keys_status ON upstream_keys (status);
ALTER TABLE upstream_key_history ADD COLUMN credits_remaining REAL;
CREATE INDEX IF NOT EXISTS upstream_key_history_key ON upstream_key_history (upstream_key_id, id);
CREATE INDEX IF NOT EXISTS upstream_models_key ON upstream_models (upstream_key_id);
