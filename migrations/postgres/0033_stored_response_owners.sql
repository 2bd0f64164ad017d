-- Each owner's stored Responses bytes, kept by every write (SQLite migration 0033_stored_response_owners.sql
-- says why): the per-owner size cap reads one row instead of summing the owner's rows.
CREATE TABLE IF NOT EXISTS stored_response_owners (
  owner TEXT PRIMARY KEY,
  bytes BIGINT NOT NULL
);
INSERT INTO stored_response_owners (owner, bytes)
SELECT owner, SUM(bytes) FROM stored_responses GROUP BY owner
ON CONFLICT (owner) DO UPDATE SET bytes = excluded.bytes;
