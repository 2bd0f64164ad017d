-- Governance (issue 27): key groups, per-key rate limits and lifecycle, budgets over any period and scope,
-- budget alerts, the audit log, and the rate-limit counts processes on one database share. Additive: the
-- daily budgets and keys that exist keep working as they are. docs/governance.md describes the design.

-- Teams or projects. A key belongs to at most one group; the group's limits and model allowlist bound its
-- keys (a key may only narrow them). NULL limits mean "not limited here".
CREATE TABLE IF NOT EXISTS key_groups (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  rpm INTEGER,
  tpm INTEGER,
  max_parallel INTEGER,
  allowed_models TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE TRIGGER IF NOT EXISTS cfg_key_groups_i AFTER INSERT ON key_groups BEGIN UPDATE config_generation SET value = value + 1; END;
CREATE TRIGGER IF NOT EXISTS cfg_key_groups_u AFTER UPDATE ON key_groups BEGIN UPDATE config_generation SET value = value + 1; END;
CREATE TRIGGER IF NOT EXISTS cfg_key_groups_d AFTER DELETE ON key_groups BEGIN UPDATE config_generation SET value = value + 1; END;

-- Per-key limits (NULL: inherit the group's, else the global default), expiry, and rotation: the previous
-- secret's hash stays valid until previous_valid_until (epoch ms), then only the new one works.
ALTER TABLE api_keys ADD COLUMN group_id INTEGER REFERENCES key_groups (id) ON DELETE SET NULL;
ALTER TABLE api_keys ADD COLUMN rpm INTEGER;
ALTER TABLE api_keys ADD COLUMN tpm INTEGER;
ALTER TABLE api_keys ADD COLUMN max_parallel INTEGER;
ALTER TABLE api_keys ADD COLUMN expires_at INTEGER;
ALTER TABLE api_keys ADD COLUMN previous_key_hash TEXT;
ALTER TABLE api_keys ADD COLUMN previous_valid_until INTEGER;
CREATE INDEX IF NOT EXISTS api_keys_previous_hash ON api_keys (previous_key_hash);
-- When each key last authenticated, flushed in batches. A table of its own: an update of api_keys bumps the
-- configuration generation (every process reloads), which a usage time must not do.
CREATE TABLE IF NOT EXISTS api_key_last_used (
  key_id INTEGER PRIMARY KEY REFERENCES api_keys (id) ON DELETE CASCADE,
  last_used_at INTEGER NOT NULL
) STRICT;

-- Budgets over any period and scope. `daily_limit` (the column's historical name) is the limit of the row's
-- period. Scope: key_id set = one key, group_id set = one group, neither = global. period: day | week |
-- month | rolling (rolling_ms long). hard_stop 0 means warn only. The webhook secret is sealed.
ALTER TABLE budgets ADD COLUMN group_id INTEGER REFERENCES key_groups (id) ON DELETE CASCADE;
ALTER TABLE budgets ADD COLUMN period TEXT NOT NULL DEFAULT 'day';
ALTER TABLE budgets ADD COLUMN rolling_ms INTEGER;
ALTER TABLE budgets ADD COLUMN hard_stop INTEGER NOT NULL DEFAULT 1;
ALTER TABLE budgets ADD COLUMN webhook_url TEXT;
ALTER TABLE budgets ADD COLUMN webhook_secret TEXT;
-- One budget per scope and period (the old index allowed one per key only).
DROP INDEX IF EXISTS budgets_scope;
CREATE UNIQUE INDEX IF NOT EXISTS budgets_scope_period ON budgets (ifnull(key_id, 0), ifnull(group_id, 0), period, ifnull(rolling_ms, 0));

-- One row per budget, period window and level once crossed: the insert that succeeds is the one process that
-- raises the alert (and sends the webhook); the dashboard lists them. Not configuration: no generation bump.
CREATE TABLE IF NOT EXISTS budget_alerts (
  budget_id INTEGER NOT NULL,
  window_start INTEGER NOT NULL,
  level TEXT NOT NULL CHECK (level IN ('warning', 'exceeded')),
  spent REAL NOT NULL,
  budget_limit REAL NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (budget_id, window_start, level)
) STRICT;
CREATE INDEX IF NOT EXISTS budget_alerts_created ON budget_alerts (created_at);

-- Every management change and sign-in: who (actor, actor_kind), when, from which address, what (action,
-- target) and the state before and after as JSON with secrets redacted before they get here. Append-only:
-- rows are never updated; only the retention sweep deletes (oldest first).
CREATE TABLE IF NOT EXISTS audit_log (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  ts INTEGER NOT NULL,
  actor TEXT NOT NULL,
  actor_kind TEXT NOT NULL,
  address TEXT NOT NULL DEFAULT '',
  action TEXT NOT NULL,
  target TEXT NOT NULL DEFAULT '',
  before_json TEXT,
  after_json TEXT
) STRICT;
CREATE INDEX IF NOT EXISTS audit_log_ts ON audit_log (ts, id);
CREATE INDEX IF NOT EXISTS audit_log_action ON audit_log (action, ts);
CREATE TRIGGER IF NOT EXISTS audit_log_append_only BEFORE UPDATE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;

-- Rate-limit counts each process shares with the others on the database (src/accounting/rate_limiter.ts):
-- per scope and process, cumulative requests and tokens admitted, requests in flight now, the share of each
-- limit the process may use until its next tick, and what it alone admitted still in the buckets (which a
-- process that first sees the row adds to its own view). Upserted on the ticks where something changed; rows of gone processes are pruned.
CREATE TABLE IF NOT EXISTS rate_counts (
  scope TEXT NOT NULL,
  origin TEXT NOT NULL,
  requests INTEGER NOT NULL DEFAULT 0,
  tokens INTEGER NOT NULL DEFAULT 0,
  in_flight INTEGER NOT NULL DEFAULT 0,
  share_requests REAL NOT NULL DEFAULT 0,
  share_tokens REAL NOT NULL DEFAULT 0,
  share_slots REAL NOT NULL DEFAULT 0,
  level_requests REAL NOT NULL DEFAULT 0,
  level_tokens REAL NOT NULL DEFAULT 0,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (scope, origin)
) STRICT;
CREATE INDEX IF NOT EXISTS rate_counts_updated ON rate_counts (updated_at);
