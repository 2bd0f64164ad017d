-- Several gateway processes on one database (`serve --workers N`, or instances sharing a file) behave as one
-- gateway: they tell each other about cooldowns, spend and live events through this table, polled every
-- 50 ms. Rows are short-lived (pruned after a few minutes).
CREATE TABLE IF NOT EXISTS cluster_events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  origin TEXT NOT NULL,
  kind TEXT NOT NULL,
  payload TEXT NOT NULL,
  created_at INTEGER NOT NULL
);

-- Which processes are alive (a heartbeat every second): a process alone on its database publishes nothing.
-- `wants` lists the optional channels a process listens to now (the live stream while a dashboard is open).
CREATE TABLE IF NOT EXISTS cluster_members (
  origin TEXT PRIMARY KEY,
  label TEXT NOT NULL,
  seen_at INTEGER NOT NULL,
  wants TEXT NOT NULL DEFAULT ''
);

-- Bumped by every change to configuration tables (by any process: the dashboard, the CLI, another worker),
-- so running gateways reload only when configuration changed, not on every usage row another process writes.
CREATE TABLE IF NOT EXISTS config_generation (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  value INTEGER NOT NULL
);
INSERT OR IGNORE INTO config_generation (id, value) VALUES (1, 0);

CREATE TRIGGER IF NOT EXISTS cfg_providers_i AFTER INSERT ON providers BEGIN UPDATE config_generation SET value = value + 1; END;
CREATE TRIGGER IF NOT EXISTS cfg_providers_u AFTER UPDATE ON providers BEGIN UPDATE config_generation SET value = value + 1; END;
CREATE TRIGGER IF NOT EXISTS cfg_providers_d AFTER DELETE ON providers BEGIN UPDATE config_generation SET value = value + 1; END;
CREATE TRIGGER IF NOT EXISTS cfg_combos_i AFTER INSERT ON combos BEGIN UPDATE config_generation SET value = value + 1; END;
CREATE TRIGGER IF NOT EXISTS cfg_combos_u AFTER UPDATE ON combos BEGIN UPDATE config_generation SET value = value + 1; END;
CREATE TRIGGER IF NOT EXISTS cfg_combos_d AFTER DELETE ON combos BEGIN UPDATE config_generation SET value = value + 1; END;
CREATE TRIGGER IF NOT EXISTS cfg_api_keys_i AFTER INSERT ON api_keys BEGIN UPDATE config_generation SET value = value + 1; END;
CREATE TRIGGER IF NOT EXISTS cfg_api_keys_u AFTER UPDATE ON api_keys BEGIN UPDATE config_generation SET value = value + 1; END;
CREATE TRIGGER IF NOT EXISTS cfg_api_keys_d AFTER DELETE ON api_keys BEGIN UPDATE config_generation SET value = value + 1; END;
CREATE TRIGGER IF NOT EXISTS cfg_settings_i AFTER INSERT ON settings BEGIN UPDATE config_generation SET value = value + 1; END;
CREATE TRIGGER IF NOT EXISTS cfg_settings_u AFTER UPDATE ON settings BEGIN UPDATE config_generation SET value = value + 1; END;
CREATE TRIGGER IF NOT EXISTS cfg_settings_d AFTER DELETE ON settings BEGIN UPDATE config_generation SET value = value + 1; END;
CREATE TRIGGER IF NOT EXISTS cfg_pricing_i AFTER INSERT ON pricing_overrides BEGIN UPDATE config_generation SET value = value + 1; END;
CREATE TRIGGER IF NOT EXISTS cfg_pricing_u AFTER UPDATE ON pricing_overrides BEGIN UPDATE config_generation SET value = value + 1; END;
CREATE TRIGGER IF NOT EXISTS cfg_pricing_d AFTER DELETE ON pricing_overrides BEGIN UPDATE config_generation SET value = value + 1; END;
CREATE TRIGGER IF NOT EXISTS cfg_budgets_i AFTER INSERT ON budgets BEGIN UPDATE config_generation SET value = value + 1; END;
CREATE TRIGGER IF NOT EXISTS cfg_budgets_u AFTER UPDATE ON budgets BEGIN UPDATE config_generation SET value = value + 1; END;
CREATE TRIGGER IF NOT EXISTS cfg_budgets_d AFTER DELETE ON budgets BEGIN UPDATE config_generation SET value = value + 1; END;
CREATE TRIGGER IF NOT EXISTS cfg_upstream_keys_i AFTER INSERT ON upstream_keys BEGIN UPDATE config_generation SET value = value + 1; END;
CREATE TRIGGER IF NOT EXISTS cfg_upstream_keys_u AFTER UPDATE ON upstream_keys BEGIN UPDATE config_generation SET value = value + 1; END;
CREATE TRIGGER IF NOT EXISTS cfg_upstream_keys_d AFTER DELETE ON upstream_keys BEGIN UPDATE config_generation SET value = value + 1; END;
