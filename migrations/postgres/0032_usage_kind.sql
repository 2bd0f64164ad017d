-- What each usage row was: chat, completion, embedding, image, audio or rerank (SQLite migration
-- 0031_usage_kind.sql says why). The rollup gains kind in its key; old rollup rows are re-added from the
-- usage rows so that they land in their kind too.
ALTER TABLE usage ADD COLUMN IF NOT EXISTS kind TEXT NOT NULL DEFAULT 'chat';
UPDATE usage SET kind = CASE client_format WHEN 'embeddings' THEN 'embedding' WHEN 'images' THEN 'image' ELSE 'audio' END
  WHERE client_format IN ('embeddings', 'images', 'audio');
ALTER TABLE usage_daily ADD COLUMN IF NOT EXISTS kind TEXT NOT NULL DEFAULT 'chat';
ALTER TABLE usage_daily DROP CONSTRAINT IF EXISTS usage_daily_pkey;
DELETE FROM usage_daily;
INSERT INTO usage_daily (day, model, provider_id, account_id, client_key_id, client_key_label, kind, requests,
  ok_requests, client_errors, server_errors, input_tokens, output_tokens, cache_read_tokens, cache_creation_tokens,
  cost, unpriced_requests)
SELECT ts / 86400000, model, provider_id, account_id, coalesce(client_key_id, 0), client_key_label, kind, count(*),
  count(*) FILTER (WHERE status BETWEEN 200 AND 299), count(*) FILTER (WHERE status BETWEEN 400 AND 499),
  count(*) FILTER (WHERE status >= 500 OR status < 200), sum(input_tokens), sum(output_tokens),
  sum(cache_read_tokens), sum(cache_creation_tokens), sum(cost),
  count(*) FILTER (WHERE priced = 0 AND input_tokens + output_tokens > 0)
FROM usage GROUP BY 1, 2, 3, 4, 5, 6, 7;
ALTER TABLE usage_daily ADD PRIMARY KEY (day, model, provider_id, account_id, client_key_id, client_key_label, kind);
