-- Azure OpenAI call settings of a provider (docs/config.md): JSON {"apiVersion", "deployments": {model: deployment}};
-- '{}' for every other kind.
ALTER TABLE providers ADD COLUMN azure TEXT NOT NULL DEFAULT '{}';
