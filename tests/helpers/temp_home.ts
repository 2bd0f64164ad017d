import { join } from "node:path";
import { type Config, parseConfig, resolveHomePaths } from "../../src/config/mod.ts";

/** A fresh gateway home in a temp folder with `yaml` as its config.yaml. */
export interface TempHome {
  readonly dir: string;
  readonly configPath: string;
  readonly config: Config;
  cleanup(): void;
}

/** Creates a temp home; `yaml` defaults to a minimal valid config. */
export function tempHome(
  yaml = "server:\n  require_api_key: false\n",
  env: Record<string, string> = {},
): TempHome {
  const dir = Deno.makeTempDirSync({ prefix: "gateway-test-" });
  const configPath = join(dir, "config.yaml");
  Deno.writeTextFileSync(configPath, yaml);
  const paths = resolveHomePaths(configPath, {});
  const config = parseConfig(yaml, paths, (name) => env[name]);
  return {
    dir,
    configPath,
    config,
    cleanup: () => Deno.removeSync(dir, { recursive: true }),
  };
}
