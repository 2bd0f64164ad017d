-- The request log's index: one row per client request (usage keeps one row per attempt), written whether or not
-- bodies are captured, so the Request logs screen, its export and `gateway logs` filter a million requests by
-- time, model, provider, account, key, status class, client surface and stream, a page at a time (keyset on
-- ts, id). `uid` links the request to its captured bodies in request_logs (kept for the newest N only), where
-- the bounded text search looks. `chain` is the attempt chain as JSON: each attempt's provider, account, status,
-- error and duration. `ttft_ms` is the time to the first byte of the answer (-1 when none was sent).
CREATE TABLE IF NOT EXISTS requests (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  uid TEXT NOT NULL,
  ts INTEGER NOT NULL,
  client_format TEXT NOT NULL DEFAULT '',
  model TEXT NOT NULL DEFAULT '',
  provider_id TEXT NOT NULL DEFAULT '',
  account_id TEXT NOT NULL DEFAULT '',
  client_key_id INTEGER,
  client_key_label TEXT NOT NULL DEFAULT '',
  status INTEGER NOT NULL,
  status_class INTEGER NOT NULL,
  streamed INTEGER NOT NULL DEFAULT 0,
  input_tokens INTEGER NOT NULL DEFAULT 0,
  output_tokens INTEGER NOT NULL DEFAULT 0,
  cost REAL NOT NULL DEFAULT 0,
  ttft_ms INTEGER NOT NULL DEFAULT -1,
  latency_ms INTEGER NOT NULL DEFAULT 0,
  attempts INTEGER NOT NULL DEFAULT 0,
  chain TEXT NOT NULL DEFAULT '[]',
  error TEXT NOT NULL DEFAULT ''
) STRICT;
-- One index per filter, each ending in ts (SQLite appends the rowid): an equality filter walks its index in
-- page order and stops after one page; other filters of the same query are checked on the way.
CREATE INDEX IF NOT EXISTS requests_ts ON requests (ts);
CREATE INDEX IF NOT EXISTS requests_model_ts ON requests (model, ts);
CREATE INDEX IF NOT EXISTS requests_provider_ts ON requests (provider_id, ts);
CREATE INDEX IF NOT EXISTS requests_account_ts ON requests (account_id, ts);
CREATE INDEX IF NOT EXISTS requests_key_ts ON requests (client_key_id, ts);
CREATE INDEX IF NOT EXISTS requests_class_ts ON requests (status_class, ts);
CREATE INDEX IF NOT EXISTS requests_surface_ts ON requests (client_format, ts);
CREATE INDEX IF NOT EXISTS requests_uid ON requests (uid);
ALTER TABLE request_logs ADD COLUMN uid TEXT NOT NULL DEFAULT '';
UPDATE request_logs SET uid = 'log-' || id WHERE uid = '';
CREATE INDEX IF NOT EXISTS request_logs_uid ON request_logs (uid);
-- Requests captured before this migration get their index row from their log row (no tokens or chain known).
INSERT INTO requests (uid, ts, client_format, model, provider_id, account_id, client_key_label, status, status_class,
    streamed, latency_ms, attempts, error)
  SELECT uid, ts, client_format, model, provider_id, account_id, "user", status, status / 100, streamed, latency_ms,
    CASE WHEN provider_id = '' THEN 0 ELSE 1 END, error
  FROM request_logs;
