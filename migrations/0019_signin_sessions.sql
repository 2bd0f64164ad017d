-- Subscription sign-ins in progress (the dashboard's Connect, `gateway providers connect`), shared by every
-- process on the database: a status poll, a cancel or a pasted redirect may reach any worker or instance.
-- The worker that started a device sign-in polls the provider and writes each change here; the others read.
-- Secrets (the device code, the PKCE verifier and state) are sealed with the secret key; the rest is what the
-- user is shown anyway. `completing` is a pending sign-in one process has claimed to save its credential.
CREATE TABLE IF NOT EXISTS signin_sessions (
  id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  provider_id TEXT NOT NULL,
  flow TEXT NOT NULL,
  status TEXT NOT NULL,
  message TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  finished_at INTEGER,
  user_code TEXT,
  verification_uri TEXT,
  verification_uri_complete TEXT,
  interval_s INTEGER,
  authorize_url TEXT,
  redirect_uri TEXT,
  device_secret TEXT NOT NULL DEFAULT '',
  pkce_secret TEXT NOT NULL DEFAULT ''
) STRICT;
-- One open sign-in per provider, across processes: a second insert for the provider fails instead of racing.
CREATE UNIQUE INDEX IF NOT EXISTS signin_sessions_one_open ON signin_sessions (provider_id) WHERE status = 'pending';
CREATE INDEX IF NOT EXISTS signin_sessions_status ON signin_sessions (status, expires_at);
