-- A big stored conversation's JSON in parts (SQLite migration 0034_stored_response_parts.sql says why).
ALTER TABLE stored_responses ADD COLUMN IF NOT EXISTS input_stage TEXT NOT NULL DEFAULT '';
ALTER TABLE stored_responses ADD COLUMN IF NOT EXISTS input_parts BIGINT NOT NULL DEFAULT 0;
CREATE TABLE IF NOT EXISTS stored_response_parts (
  stage TEXT NOT NULL,
  seq BIGINT NOT NULL,
  created_at BIGINT NOT NULL,
  part TEXT NOT NULL,
  PRIMARY KEY (stage, seq)
);
CREATE INDEX IF NOT EXISTS stored_response_parts_created ON stored_response_parts (created_at);
