-- Prices of image and audio models beside the per-token ones (SQLite migration 0026_media_prices.sql;
-- docs/media.md): per image by variant as a JSON object, per second of audio, per million characters. NULL: none.
ALTER TABLE pricing_overrides ADD COLUMN IF NOT EXISTS per_image TEXT;
ALTER TABLE pricing_overrides ADD COLUMN IF NOT EXISTS per_second DOUBLE PRECISION;
ALTER TABLE pricing_overrides ADD COLUMN IF NOT EXISTS per_mchar DOUBLE PRECISION;
