-- A key's dashboard role when set explicitly; NULL means the default: administrator without a model
-- allowlist, viewer with one.
ALTER TABLE api_keys ADD COLUMN role TEXT CHECK (role IN ('admin', 'viewer'));
