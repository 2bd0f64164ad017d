-- Per-model capability overrides of a provider (JSON object: model name → partial capabilities).
ALTER TABLE providers ADD COLUMN capabilities TEXT NOT NULL DEFAULT '{}';
