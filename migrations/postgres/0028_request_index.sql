-- The request log's index: one row per client request (SQLite migration 0028_request_index.sql says why). Each
-- filter's index ends in (ts, id), the page order, so a filtered page is one ordered index walk.
CREATE TABLE IF NOT EXISTS requests (
  id BIGSERIAL PRIMARY KEY,
  uid TEXT NOT NULL,
  ts BIGINT NOT NULL,
  client_format TEXT NOT NULL DEFAULT '',
  model TEXT NOT NULL DEFAULT '',
  provider_id TEXT NOT NULL DEFAULT '',
  account_id TEXT NOT NULL DEFAULT '',
  client_key_id BIGINT,
  client_key_label TEXT NOT NULL DEFAULT '',
  status BIGINT NOT NULL,
  status_class BIGINT NOT NULL,
  streamed BIGINT NOT NULL DEFAULT 0,
  input_tokens BIGINT NOT NULL DEFAULT 0,
  output_tokens BIGINT NOT NULL DEFAULT 0,
  cost DOUBLE PRECISION NOT NULL DEFAULT 0,
  ttft_ms BIGINT NOT NULL DEFAULT -1,
  latency_ms BIGINT NOT NULL DEFAULT 0,
  attempts BIGINT NOT NULL DEFAULT 0,
  chain TEXT NOT NULL DEFAULT '[]',
  error TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS requests_ts ON requests (ts, id);
CREATE INDEX IF NOT EXISTS requests_model_ts ON requests (model, ts, id);
CREATE INDEX IF NOT EXISTS requests_provider_ts ON requests (provider_id, ts, id);
CREATE INDEX IF NOT EXISTS requests_account_ts ON requests (account_id, ts, id);
CREATE INDEX IF NOT EXISTS requests_key_ts ON requests (client_key_id, ts, id);
CREATE INDEX IF NOT EXISTS requests_class_ts ON requests (status_class, ts, id);
CREATE INDEX IF NOT EXISTS requests_surface_ts ON requests (client_format, ts, id);
CREATE INDEX IF NOT EXISTS requests_uid ON requests (uid);
ALTER TABLE request_logs ADD COLUMN IF NOT EXISTS uid TEXT NOT NULL DEFAULT '';
UPDATE request_logs SET uid = 'log-' || id WHERE uid = '';
CREATE INDEX IF NOT EXISTS request_logs_uid ON request_logs (uid);
INSERT INTO requests (uid, ts, client_format, model, provider_id, account_id, client_key_label, status, status_class,
    streamed, latency_ms, attempts, error)
  SELECT uid, ts, client_format, model, provider_id, account_id, "user", status, status / 100, streamed, latency_ms,
    CASE WHEN provider_id = '' THEN 0 ELSE 1 END, error
  FROM request_logs;
