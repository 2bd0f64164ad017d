-- Subscription sign-ins in progress, shared by every instance (SQLite migration 0019_signin_sessions.sql).
-- Secrets (device code, PKCE verifier and state) are sealed with the secret key before they get here.
CREATE TABLE IF NOT EXISTS signin_sessions (
  id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  provider_id TEXT NOT NULL,
  flow TEXT NOT NULL,
  status TEXT NOT NULL,
  message TEXT,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  finished_at BIGINT,
  user_code TEXT,
  verification_uri TEXT,
  verification_uri_complete TEXT,
  interval_s BIGINT,
  authorize_url TEXT,
  redirect_uri TEXT,
  device_secret TEXT NOT NULL DEFAULT '',
  pkce_secret TEXT NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX IF NOT EXISTS signin_sessions_one_open ON signin_sessions (provider_id) WHERE status = 'pending';
CREATE INDEX IF NOT EXISTS signin_sessions_status ON signin_sessions (status, expires_at);
