-- Every query on the raw usage table filters on ts alone (the dashboard's per-key, per-model and
-- per-provider views read usage_daily), so these indexes were only cost: each one is updated for every
-- recorded attempt.
DROP INDEX IF EXISTS usage_key_ts;
DROP INDEX IF EXISTS usage_model_ts;
DROP INDEX IF EXISTS usage_provider_ts;
