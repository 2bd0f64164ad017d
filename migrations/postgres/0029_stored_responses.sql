-- Stored Responses API state (SQLite migration 0029_stored_responses.sql says why): each completed response
-- under (owner, id), and its output items by id for `item_reference`.
CREATE TABLE IF NOT EXISTS stored_responses (
  owner TEXT NOT NULL,
  id TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  account_id TEXT NOT NULL DEFAULT '',
  upstream_kept BIGINT NOT NULL DEFAULT 0,
  bytes BIGINT NOT NULL,
  input_items TEXT NOT NULL,
  response TEXT NOT NULL,
  PRIMARY KEY (owner, id)
);
CREATE INDEX IF NOT EXISTS stored_responses_expires ON stored_responses (expires_at);
-- Covers the per-owner size cap (sum of bytes, oldest first) without reading the large columns.
CREATE INDEX IF NOT EXISTS stored_responses_owner_created ON stored_responses (owner, created_at, id, bytes);
CREATE TABLE IF NOT EXISTS stored_response_items (
  owner TEXT NOT NULL,
  item_id TEXT NOT NULL,
  response_id TEXT NOT NULL,
  expires_at BIGINT NOT NULL,
  item TEXT NOT NULL,
  PRIMARY KEY (owner, item_id)
);
CREATE INDEX IF NOT EXISTS stored_response_items_response ON stored_response_items (owner, response_id);
CREATE INDEX IF NOT EXISTS stored_response_items_expires ON stored_response_items (expires_at);
