-- Azure OpenAI call settings of a provider (SQLite migration 0031_provider_azure.sql; docs/config.md).
ALTER TABLE providers ADD COLUMN IF NOT EXISTS azure TEXT NOT NULL DEFAULT '{}';
