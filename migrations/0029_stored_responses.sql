-- Stored Responses API state (`store: true`, the API's default): each completed response under its id, scoped to
-- the caller that made it (`owner`: `key:<id>`, `static:<label>` or `anonymous`), so `previous_response_id`,
-- `item_reference`, `GET`/`DELETE /v1/responses/{id}` and `/input_items` work for any upstream and from any
-- worker or instance. `input_items` is the whole conversation the response answered (earlier turns expanded),
-- so a row stands alone when older rows are gone; `response` is the response object the client received.
-- `account_id` is the upstream account that answered; `upstream_kept` is 1 when that account is a Responses
-- upstream that stored the response itself (the client sent `store: true`), so the next turn on the same
-- account can pass `previous_response_id` through instead of resending the conversation. `bytes` counts toward
-- the per-owner size cap (oldest rows dropped first); rows past `expires_at` are swept (see
-- src/gateway/response_store.ts). The small columns come first: the large texts spill to overflow pages.
CREATE TABLE IF NOT EXISTS stored_responses (
  owner TEXT NOT NULL,
  id TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  account_id TEXT NOT NULL DEFAULT '',
  upstream_kept INTEGER NOT NULL DEFAULT 0,
  bytes INTEGER NOT NULL,
  input_items TEXT NOT NULL,
  response TEXT NOT NULL,
  PRIMARY KEY (owner, id)
) STRICT;
CREATE INDEX IF NOT EXISTS stored_responses_expires ON stored_responses (expires_at);
-- Covers the per-owner size cap (sum of bytes, oldest first) without reading the large columns.
CREATE INDEX IF NOT EXISTS stored_responses_owner_created ON stored_responses (owner, created_at, id, bytes);
-- Each output item of a stored response by its id, for `item_reference` inputs (one row read per reference).
CREATE TABLE IF NOT EXISTS stored_response_items (
  owner TEXT NOT NULL,
  item_id TEXT NOT NULL,
  response_id TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  item TEXT NOT NULL,
  PRIMARY KEY (owner, item_id)
) STRICT;
CREATE INDEX IF NOT EXISTS stored_response_items_response ON stored_response_items (owner, response_id);
CREATE INDEX IF NOT EXISTS stored_response_items_expires ON stored_response_items (expires_at);
