-- Which transaction wrote each cluster event (PostgreSQL 13 or later). Writers on different connections
-- commit out of id order, so readers cannot trust `id > last`; they read by writer transaction instead
-- (src/storage/cluster_cursor.ts). Rows written before this migration get the migration's transaction id,
-- older than any reader's first snapshot, so they are not delivered again.
ALTER TABLE cluster_events ADD COLUMN IF NOT EXISTS writer_xid xid8 NOT NULL DEFAULT pg_current_xact_id();
CREATE INDEX IF NOT EXISTS cluster_events_writer_xid ON cluster_events (writer_xid);
