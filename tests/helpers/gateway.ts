import { parseConfig, resolveHomePaths } from "../../src/config/mod.ts";
import { type RunningGateway, startGateway } from "../../src/cli/serve.ts";
import type { UpstreamTimeouts } from "../../src/gateway/dispatch.ts";
import { testPostgres } from "./postgres.ts";
import { Store } from "../../src/storage/mod.ts";

/**
 * `GATEWAY_TEST_STORAGE=postgres` runs every in-process test gateway on PostgreSQL instead of SQLite
 * (the second pass of `deno task test`, or `deno task test:postgres`): the same tests hold the repositories to the same contract on both.
 */
const ON_POSTGRES = Deno.env.get("GATEWAY_TEST_STORAGE") === "postgres";
/** Test homes whose gateway already has a PostgreSQL database (a second gateway on a home shares it). */
const databases = new Map<string, string>();

/** A gateway running in-process on a free loopback port with its own temp home. */
export interface TestGateway extends RunningGateway {
  readonly dir: string;
  readonly configPath: string;
  /** Stops the gateway and removes its home. */
  stop(): Promise<void>;
}

/** Starts a gateway from YAML text (fresh home unless `dir` is given). */
export async function startTestGateway(
  yaml: string,
  options: {
    dir?: string;
    timeouts?: UpstreamTimeouts;
    env?: Record<string, string>;
    now?: () => number;
    watchIntervalMs?: number;
  } = {},
): Promise<TestGateway> {
  const dir = options.dir ?? Deno.makeTempDirSync({ prefix: "gateway-test-" });
  const configPath = `${dir}/config.yaml`;
  Deno.writeTextFileSync(configPath, yaml);
  let config = parseConfig(yaml, resolveHomePaths(configPath, {}), (n) => options.env?.[n]);
  // A test gateway leaves its providers' own keys unchecked unless the YAML asks: a check would call the mock
  // upstream (model list, 1-token probe), eating scripted replies and moving routing to the key's inventory copy.
  if (!/\bcheck_provider_keys:/.test(yaml)) {
    config = { ...config, inventory: { ...config.inventory, checkProviderKeys: false } };
  }
  if (ON_POSTGRES && config.storage.url === null) {
    let url = databases.get(dir);
    if (url === undefined) {
      url = await (await testPostgres()).newDatabase();
      databases.set(dir, url);
    }
    config = { ...config, storage: { url } };
  }
  const running = await startGateway({
    config,
    port: 0,
    host: "127.0.0.1",
    timeouts: options.timeouts,
    now: options.now ?? Date.now,
    watchIntervalMs: options.watchIntervalMs ?? 200,
    // Variables the test gives win over the process environment (INVENTORY_PUSH_TOKEN, …).
    env: (n) => options.env?.[n] ?? Deno.env.get(n),
  });
  let stopped = false;
  return {
    ...running,
    dir,
    configPath,
    async stop() {
      if (stopped) return;
      stopped = true;
      await running.close();
      if (!options.dir) Deno.removeSync(dir, { recursive: true });
    },
  };
}

/**
 * YAML that keeps a gateway process from checking its providers' own keys: a check calls the mock upstream
 * (model list, 1-token probe) and moves routing to the key's inventory copy. Spawned `serve` processes whose
 * tests count upstream calls add it; in-process test gateways get it unless their YAML says otherwise.
 */
export const QUIET_KEY_CHECKS = "inventory:\n  check_provider_keys: false\n";

/** YAML for chat_compat providers pointing at mock upstreams. */
export function chatProvidersYaml(
  providers: readonly { id: string; prefix: string; url: string; models?: string[]; apiType?: string }[],
  extra = "",
): string {
  const entries = providers.map((p) =>
    `  - id: ${p.id}\n    prefix: ${p.prefix}\n    api_type: ${
      p.apiType ?? "chat_compat"
    }\n    base_url: ${p.url}${
      (p.apiType ?? "chat_compat") === "chat_compat" ? "/v1" : ""
    }\n    api_key: upstream-key-${p.id}\n    models: [${(p.models ?? ["m1"]).join(", ")}]\n`
  ).join("");
  return `providers:\n${entries}${extra}`;
}

/**
 * Opens the database of a test home the way another process would (after its gateway stopped, or
 * beside it): the SQLite file, or the home's PostgreSQL database under `GATEWAY_TEST_STORAGE=postgres`.
 */
export function openHomeStore(dir: string): Store {
  return Store.openWithSecret(databases.get(dir) ?? `${dir}/gateway.db`, `${dir}/secret.key`, undefined);
}

/** Environment for a CLI child process working on a test home's database. */
export function homeDatabaseEnv(dir: string): Record<string, string> {
  const url = databases.get(dir);
  return url === undefined ? {} : { GATEWAY_DATABASE_URL: url };
}
