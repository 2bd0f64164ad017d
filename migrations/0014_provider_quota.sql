-- Configured limits of a provider account (JSON: {"rpm", "rpd", "windows": [{"window", "metric", "limit"}]}).
ALTER TABLE providers ADD COLUMN quota TEXT NOT NULL DEFAULT '{}';
