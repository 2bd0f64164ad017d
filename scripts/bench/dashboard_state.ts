/**
 * Bench: dashboard state sections over a seeded usage table (default 1,000,000 rows over 90 days).
 * Run: deno run -A scripts/bench/dashboard_state.ts [rows] [days]
 * Prints seeding time, rollup size and per-section timings (median and max of several runs).
 */
import { parseConfig, resolveHomePaths } from "../../src/config/mod.ts";
import { buildState } from "../../src/dashboard/sections.ts";
import type { StateSection } from "../../src/dashboard/contract/mod.ts";
import { composeGateway } from "../../src/compose.ts";
import { loadSecretBox, Store, type UsageRow } from "../../src/storage/mod.ts";

const ROWS = Number(Deno.args[0] ?? 1_000_000);
const DAYS = Number(Deno.args[1] ?? 90);
const RUNS = 7;

const dir = Deno.makeTempDirSync({ prefix: "gateway-bench-dashboard-" });
const yaml =
  `providers:\n  - id: acct-a\n    prefix: p\n    api_type: chat_compat\n    base_url: http://127.0.0.1:9/v1\n    models: [m1]\n`;
Deno.writeTextFileSync(`${dir}/config.yaml`, yaml);
const paths = resolveHomePaths(`${dir}/config.yaml`, {});
const config = parseConfig(yaml, paths, () => undefined);
const store = Store.open(paths.dbPath, loadSecretBox(paths.secretKeyPath, undefined));

const models = Array.from({ length: 12 }, (_, i) => `p${i % 4}/model-${i}`);
const providers = ["acct-a", "acct-b", "acct-c", "acct-d"];
const now = Date.now();
let seed = 42;
// mulberry32: a small deterministic PRNG so runs are comparable.
const rand = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const seedStart = performance.now();
const BATCH = 50_000;
for (let done = 0; done < ROWS; done += BATCH) {
  const rows: UsageRow[] = [];
  for (let i = done; i < Math.min(done + BATCH, ROWS); i++) {
    const model = models[Math.floor(rand() * models.length)];
    const keyId = Math.floor(rand() * 6);
    const status = rand() < 0.95 ? 200 : rand() < 0.5 ? 429 : 502;
    const input = Math.floor(rand() * 4000);
    const output = Math.floor(rand() * 800);
    rows.push({
      ts: now - Math.floor(rand() * DAYS * 86_400_000),
      clientFormat: "chat_completions",
      requestModel: model,
      model,
      providerId: providers[Math.floor(rand() * providers.length)],
      accountId: providers[0],
      clientKeyId: keyId === 0 ? null : keyId,
      clientKeyLabel: keyId === 0 ? "(no key)" : `key-${keyId}`,
      status,
      inputTokens: input,
      cacheReadTokens: 0,
      cacheCreationTokens: 0,
      outputTokens: output,
      reasoningTokens: 0,
      estimated: false,
      cost: (input * 3 + output * 15) / 1e6,
      priced: !model.endsWith("-11"),
      latencyMs: Math.floor(rand() * 3000),
      streamed: false,
      error: "",
    });
  }
  store.transaction(() => store.usage.insert(rows));
}
const seedMs = performance.now() - seedStart;
const rollupRows = Number(
  (store.db.prepare("SELECT count(*) AS n FROM usage_daily").get() as { n: number }).n,
);
console.log(
  `seeded ${ROWS.toLocaleString()} usage rows over ${DAYS} days in ${(seedMs / 1000).toFixed(1)} s ` +
    `(${
      Math.round(ROWS / (seedMs / 1000)).toLocaleString()
    } rows/s daily rollup included); rollup rows: ${rollupRows.toLocaleString()}`,
);

const gateway = composeGateway({ config, store, now: Date.now, env: () => undefined });
const ctx = gateway.dashboard;
const cases: [StateSection, string][] = [
  ["overview", ""],
  ["usage", ""],
  ["analytics", "days=7&dimension=model"],
  ["analytics", "days=30&dimension=provider"],
  ["analytics", "days=90&dimension=client_key"],
  ["analytics", "days=365&dimension=model"],
  ["leaderboard", "days=30&sort=tokens"],
  ["leaderboard", "days=365&sort=cost"],
  ["pricing", ""],
  ["request-logs", ""],
];
console.log("section                                   median ms   max ms");
for (const [section, query] of cases) {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    buildState(section, ctx, new URLSearchParams(query), "http://127.0.0.1:20128", "bench");
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const label = `${section}${query ? `?${query}` : ""}`.padEnd(42);
  console.log(`${label}${times[RUNS >> 1].toFixed(1).padStart(9)}${times[RUNS - 1].toFixed(1).padStart(9)}`);
}
await gateway.close();
store.close();
Deno.removeSync(dir, { recursive: true });
