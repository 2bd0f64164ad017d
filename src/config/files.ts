import { dirname } from "node:path";
import { DEFAULT_CONFIG_YAML } from "./default_config.ts";
import type { Config } from "./config.ts";
import { ConfigError } from "./errors.ts";
import { parseConfig } from "./load.ts";
import type { HomePaths } from "./paths.ts";

/** Outcome of writing the default config. */
export type WriteDefaultResult = "created" | "exists" | "overwritten";

/** Writes the default YAML; never overwrites an existing file unless `force`. */
export function writeDefaultConfig(path: string, force: boolean): WriteDefaultResult {
  const exists = fileExists(path);
  if (exists && !force) return "exists";
  Deno.mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  Deno.writeTextFileSync(path, DEFAULT_CONFIG_YAML, { mode: 0o600 });
  return exists ? "overwritten" : "created";
}

/** Reads and validates the config file at `paths.configPath`. */
export function loadConfig(paths: HomePaths, env: (name: string) => string | undefined): Config {
  let text: string;
  try {
    text = Deno.readTextFileSync(paths.configPath);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new ConfigError(`${paths.configPath}: no such file (run \`gateway config-init\`)`);
    }
    throw new ConfigError(`${paths.configPath}: cannot read: ${(error as Error).message}`);
  }
  return parseConfig(text, paths, env);
}

/** True when a file exists at `path`. */
export function fileExists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}
