-- Dashboard: a daily usage rollup kept by a trigger, so analytics over long windows read a few thousand
-- rows instead of millions. Days are UTC days since the epoch (ts / 86400000). client_key_id 0 = no key.

CREATE TABLE IF NOT EXISTS usage_daily (
  day INTEGER NOT NULL,
  model TEXT NOT NULL,
  provider_id TEXT NOT NULL,
  account_id TEXT NOT NULL,
  client_key_id INTEGER NOT NULL,
  client_key_label TEXT NOT NULL,
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
  PRIMARY KEY (day, model, provider_id, account_id, client_key_id, client_key_label)
) STRICT, WITHOUT ROWID;

INSERT INTO usage_daily (day, model, provider_id, account_id, client_key_id, client_key_label, requests, ok_requests, client_errors, server_errors, input_tokens, output_tokens, cache_read_tokens, cache_creation_tokens, cost, unpriced_requests)
SELECT ts / 86400000, model, provider_id, account_id, ifnull(client_key_id, 0), client_key_label, count(*), sum(status BETWEEN 200 AND 299), sum(status BETWEEN 400 AND 499), sum(status >= 500 OR status < 200), sum(input_tokens), sum(output_tokens), sum(cache_read_tokens), sum(cache_creation_tokens), sum(cost), sum(priced = 0 AND input_tokens + output_tokens > 0)
FROM usage WHERE NOT EXISTS (SELECT 1 FROM usage_daily)
GROUP BY 1, 2, 3, 4, 5, 6;

CREATE TRIGGER IF NOT EXISTS usage_daily_rollup AFTER INSERT ON usage BEGIN INSERT INTO usage_daily (day, model, provider_id, account_id, client_key_id, client_key_label, requests, ok_requests, client_errors, server_errors, input_tokens, output_tokens, cache_read_tokens, cache_creation_tokens, cost, unpriced_requests) VALUES (NEW.ts / 86400000, NEW.model, NEW.provider_id, NEW.account_id, ifnull(NEW.client_key_id, 0), NEW.client_key_label, 1, NEW.status BETWEEN 200 AND 299, NEW.status BETWEEN 400 AND 499, NEW.status >= 500 OR NEW.status < 200, NEW.input_tokens, NEW.output_tokens, NEW.cache_read_tokens, NEW.cache_creation_tokens, NEW.cost, NEW.priced = 0 AND NEW.input_tokens + NEW.output_tokens > 0) ON CONFLICT (day, model, provider_id, account_id, client_key_id, client_key_label) DO UPDATE SET requests = requests + 1, ok_requests = ok_requests + excluded.ok_requests, client_errors = client_errors + excluded.client_errors, server_errors = server_errors + excluded.server_errors, input_tokens = input_tokens + excluded.input_tokens, output_tokens = output_tokens + excluded.output_tokens, cache_read_tokens = cache_read_tokens + excluded.cache_read_tokens, cache_creation_tokens = cache_creation_tokens + excluded.cache_creation_tokens, cost = cost + excluded.cost, unpriced_requests = unpriced_requests + excluded.unpriced_requests; END;

CREATE INDEX IF NOT EXISTS request_logs_ts_id ON request_logs (ts, id);
CREATE INDEX IF NOT EXISTS dashboard_sessions_expiry ON dashboard_sessions (expires_at);

ALTER TABLE request_logs ADD COLUMN request_truncated INTEGER NOT NULL DEFAULT 0;
ALTER TABLE request_logs ADD COLUMN response_truncated INTEGER NOT NULL DEFAULT 0;
