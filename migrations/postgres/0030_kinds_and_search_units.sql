-- Model kinds a provider declares, over what the model names say, and the price per rerank search unit (SQLite
-- migration 0030_kinds_and_search_units.sql; docs/config.md, docs/rerank.md). NULL: no such price.
ALTER TABLE providers ADD COLUMN IF NOT EXISTS kinds TEXT NOT NULL DEFAULT '{}';
ALTER TABLE pricing_overrides ADD COLUMN IF NOT EXISTS per_search_unit DOUBLE PRECISION;
