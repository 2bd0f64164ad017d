-- The daily rollup is now added up by the usage writer, one upsert per group and batch (see
-- src/storage/usage_repo.ts): a trigger ran one upsert per inserted row, which was most of a row's cost.
DROP TRIGGER IF EXISTS usage_daily_rollup;
