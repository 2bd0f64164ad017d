-- A big stored conversation (one holding a string of 1 Mi characters or more: a pasted log, a base64 image)
-- is kept as its JSON in parts of about 2 Mi characters, written one part per turn of the serving thread
-- before the response row that names them: written whole, a 30 MiB conversation held the thread for
-- 600-800 ms (redaction, encoding and one write), and read whole for 100 ms or more (see
-- src/gateway/response_store.ts). `stage` is a random id the parts are written under; the row's
-- `input_stage` names it and `input_parts` says how many there are (`input_items` is then ''). Parts that no
-- row names (a save that failed half way, a process that stopped) are swept once they are an hour old.
ALTER TABLE stored_responses ADD COLUMN input_stage TEXT NOT NULL DEFAULT '';
ALTER TABLE stored_responses ADD COLUMN input_parts INTEGER NOT NULL DEFAULT 0;
CREATE TABLE IF NOT EXISTS stored_response_parts (
  stage TEXT NOT NULL,
  seq INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  part TEXT NOT NULL,
  PRIMARY KEY (stage, seq)
) STRICT;
CREATE INDEX IF NOT EXISTS stored_response_parts_created ON stored_response_parts (created_at);
