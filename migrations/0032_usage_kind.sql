-- What each usage row was (analytics by kind, docs/dashboard.md): chat, completion, embedding, image, audio or
-- rerank. Rows from before are classified by their surface (`client_format` embeddings / images / audio);
-- legacy completions were recorded as chat_completions and stay chat.
ALTER TABLE usage ADD COLUMN kind TEXT NOT NULL DEFAULT 'chat';
UPDATE usage SET kind = CASE client_format WHEN 'embeddings' THEN 'embedding' WHEN 'images' THEN 'image' ELSE 'audio' END
  WHERE client_format IN ('embeddings', 'images', 'audio');

-- The daily rollup gains kind in its key. SQLite cannot change a primary key, so the table is rebuilt, from
-- the usage rows (never pruned, and the rollup's only source) so that old rows land in their kind too.
CREATE TABLE usage_daily_by_kind (
  day INTEGER NOT NULL,
  model TEXT NOT NULL,
  provider_id TEXT NOT NULL,
  account_id TEXT NOT NULL,
  client_key_id INTEGER NOT NULL,
  client_key_label TEXT NOT NULL,
  kind TEXT NOT NULL DEFAULT 'chat',
  requests INTEGER NOT NULL DEFAULT 0,
  ok_requests INTEGER NOT NULL DEFAULT 0,
  client_errors INTEGER NOT NULL DEFAULT 0,
  server_errors INTEGER NOT NULL DEFAULT 0,
  input_tokens INTEGER NOT NULL DEFAULT 0,
  output_tokens INTEGER NOT NULL DEFAULT 0,
  cache_read_tokens INTEGER NOT NULL DEFAULT 0,
  cache_creation_tokens INTEGER NOT NULL DEFAULT 0,
  cost REAL NOT NULL DEFAULT 0,
  unpriced_requests INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (day, model, provider_id, account_id, client_key_id, client_key_label, kind)
) STRICT, WITHOUT ROWID;
INSERT INTO usage_daily_by_kind (day, model, provider_id, account_id, client_key_id, client_key_label, kind, requests,
  ok_requests, client_errors, server_errors, input_tokens, output_tokens, cache_read_tokens, cache_creation_tokens,
  cost, unpriced_requests)
SELECT ts / 86400000, model, provider_id, account_id, ifnull(client_key_id, 0), client_key_label, kind, count(*),
  sum(status BETWEEN 200 AND 299), sum(status BETWEEN 400 AND 499), sum(status >= 500 OR status < 200),
  sum(input_tokens), sum(output_tokens), sum(cache_read_tokens), sum(cache_creation_tokens), sum(cost),
  sum(priced = 0 AND input_tokens + output_tokens > 0)
FROM usage GROUP BY 1, 2, 3, 4, 5, 6, 7;
DROP TABLE usage_daily;
ALTER TABLE usage_daily_by_kind RENAME TO usage_daily;
