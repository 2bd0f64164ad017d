-- Each owner's stored Responses bytes (the sum of its stored_responses.bytes), kept by every write that adds
-- or removes a row, so the per-owner size cap reads one row. Summing the owner's rows on each save cost
-- 0.6 ms at 10 k rows and 2.9 ms at 50 k on the serving thread (the default cap, 100 MB, holds more).
CREATE TABLE IF NOT EXISTS stored_response_owners (
  owner TEXT PRIMARY KEY,
  bytes INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
INSERT INTO stored_response_owners (owner, bytes)
SELECT owner, SUM(bytes) FROM stored_responses GROUP BY owner
ON CONFLICT (owner) DO UPDATE SET bytes = excluded.bytes;
