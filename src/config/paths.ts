import { dirname, join, resolve } from "node:path";

/** Where the gateway keeps its files: the config, the database and the secret key live side by side. */
export interface HomePaths {
  readonly home: string;
  readonly configPath: string;
  readonly dbPath: string;
  readonly secretKeyPath: string;
}

/**
 * Resolves the home folder: `--config <file>` wins (its folder becomes home), then `GATEWAY_HOME`,
 * then `~/.gateway`.
 */
export function resolveHomePaths(
  configFlag: string | undefined,
  env: { readonly GATEWAY_HOME?: string; readonly HOME?: string; readonly USERPROFILE?: string },
): HomePaths {
  if (configFlag) {
    const configPath = resolve(configFlag);
    return pathsIn(dirname(configPath), configPath);
  }
  const userHome = env.HOME ?? env.USERPROFILE ?? ".";
  const home = resolve(env.GATEWAY_HOME || join(userHome, ".gateway"));
  return pathsIn(home, join(home, "config.yaml"));
}

function pathsIn(home: string, configPath: string): HomePaths {
  return {
    home,
    configPath,
    dbPath: join(home, "gateway.db"),
    secretKeyPath: join(home, "secret.key"),
  };
}
