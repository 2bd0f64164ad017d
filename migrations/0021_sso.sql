-- Dashboard single sign-on with OpenID Connect (docs/sso.md).
-- A sign-in the browser has started and the provider has not answered yet. The callback may reach any worker
-- or instance, so it lives here rather than in one process's memory. Looked up by the SHA-256 of its `state`
-- and taken (deleted) exactly once; the PKCE verifier and the nonce are sealed with the secret key; the
-- browser binding is the SHA-256 of a short-lived cookie, so a callback URL only completes in the browser that
-- started it.
CREATE TABLE IF NOT EXISTS sso_pending_logins (
  state_hash TEXT PRIMARY KEY,
  binding_hash TEXT NOT NULL,
  redirect_uri TEXT NOT NULL,
  next_path TEXT NOT NULL,
  secrets TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS sso_pending_logins_expiry ON sso_pending_logins (expires_at);
-- Dashboard sessions opened by single sign-on: who (issuer and subject), shown as (email, name), and the role
-- the provider's claims mapped to at sign-in. key_id and static_key_hash stay NULL on these rows.
ALTER TABLE dashboard_sessions ADD COLUMN sso_issuer TEXT;
ALTER TABLE dashboard_sessions ADD COLUMN sso_subject TEXT;
ALTER TABLE dashboard_sessions ADD COLUMN sso_email TEXT;
ALTER TABLE dashboard_sessions ADD COLUMN sso_name TEXT;
ALTER TABLE dashboard_sessions ADD COLUMN sso_role TEXT;
