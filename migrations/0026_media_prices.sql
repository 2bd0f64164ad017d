-- Prices of image and audio models beside the per-token ones (docs/media.md): per image by variant (JSON object
-- `{"<quality>@<size>": usd, "*": usd}`), per second of audio, per million characters of speech. NULL: none.
ALTER TABLE pricing_overrides ADD COLUMN per_image TEXT;
ALTER TABLE pricing_overrides ADD COLUMN per_second REAL;
ALTER TABLE pricing_overrides ADD COLUMN per_mchar REAL;
