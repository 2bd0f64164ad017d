-- Dashboard single sign-on with OpenID Connect (SQLite migration 0021_sso.sql; docs/sso.md).
-- Sign-ins started and not yet answered, shared by every instance; verifier and nonce sealed, state and
-- browser binding stored as SHA-256 hashes.
CREATE TABLE IF NOT EXISTS sso_pending_logins (
  state_hash TEXT PRIMARY KEY,
  binding_hash TEXT NOT NULL,
  redirect_uri TEXT NOT NULL,
  next_path TEXT NOT NULL,
  secrets TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS sso_pending_logins_expiry ON sso_pending_logins (expires_at);
-- Dashboard sessions opened by single sign-on (key_id and static_key_hash stay NULL on these rows).
ALTER TABLE dashboard_sessions ADD COLUMN IF NOT EXISTS sso_issuer TEXT;
ALTER TABLE dashboard_sessions ADD COLUMN IF NOT EXISTS sso_subject TEXT;
ALTER TABLE dashboard_sessions ADD COLUMN IF NOT EXISTS sso_email TEXT;
ALTER TABLE dashboard_sessions ADD COLUMN IF NOT EXISTS sso_name TEXT;
ALTER TABLE dashboard_sessions ADD COLUMN IF NOT EXISTS sso_role TEXT;
