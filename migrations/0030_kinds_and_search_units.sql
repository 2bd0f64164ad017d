-- Model kinds a provider declares (JSON object {"<upstream model>": "chat" | "embedding" | "rerank" | "image" |
-- "transcription" | "speech"}) over what the model names say (docs/config.md), and the price per rerank
-- search unit beside the other per-unit prices (docs/rerank.md). NULL: no such price.
ALTER TABLE providers ADD COLUMN kinds TEXT NOT NULL DEFAULT '{}';
ALTER TABLE pricing_overrides ADD COLUMN per_search_unit REAL;
