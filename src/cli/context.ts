import {
  type Config,
  ConfigError,
  databaseLocation,
  DEFAULT_CONFIG_YAML,
  fileExists,
  loadConfig,
  parseConfig,
  resolveHomePaths,
} from "../config/mod.ts";
import { type AuditActor, Management } from "../features/mod.ts";
import { AuditTrail } from "../features/audit/service.ts";
import { Store } from "../storage/mod.ts";
import type { CliIo } from "./io.ts";

/**
 * Loads the config for a command that only needs the database: a missing file means defaults (nothing
 * is written), an invalid one is an error.
 */
export function configForCommand(configFlag: string | undefined, io: CliIo): Config {
  const paths = resolveHomePaths(configFlag, { GATEWAY_HOME: io.env("GATEWAY_HOME"), HOME: io.env("HOME") });
  if (!fileExists(paths.configPath)) return parseConfig(DEFAULT_CONFIG_YAML, paths, io.env);
  return loadConfig(paths, io.env);
}

/** Opens the store beside the config. */
export function openStore(config: Config, io: CliIo): Store {
  Deno.mkdirSync(config.paths.home, { recursive: true, mode: 0o700 });
  return Store.openWithSecret(
    databaseLocation(config),
    config.paths.secretKeyPath,
    io.env("GATEWAY_SECRET_KEY"),
  );
}

/** Runs `work` with an open store, closing it afterwards. */
export function withStore<T>(
  configFlag: string | undefined,
  io: CliIo,
  work: (store: Store, config: Config) => T,
): T {
  const config = configForCommand(configFlag, io);
  const store = openStore(config, io);
  try {
    // Every command's changes are audited here, whichever repository or service it goes through.
    const audit = new AuditTrail(store, io.now);
    const pending = audit.begin();
    const result = work(store, config);
    audit.end(pending, cliActor(io));
    return result;
  } finally {
    store.close();
  }
}

/** The CLI's audit actor: the operating-system user running it on the host. */
export function cliActor(io: CliIo): AuditActor {
  return { actor: io.env("USER") || io.env("USERNAME") || "cli", actorKind: "cli", address: "" };
}

/**
 * Runs `work` with the management services over the store. Changes are not pushed to a running gateway
 * (it is another process): it notices the commit by polling the database and reloads within seconds.
 */
export function withManagement<T>(
  configFlag: string | undefined,
  io: CliIo,
  work: (manage: Management, store: Store) => T,
): T {
  return withStore(
    configFlag,
    io,
    (store, config) =>
      work(new Management({ store, config, now: io.now, env: io.env, reload: () => {} }), store),
  );
}

export { ConfigError };
