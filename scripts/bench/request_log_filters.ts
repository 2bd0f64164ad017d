/**
 * Bench: the Request logs screen's filtered pages over 1,000,000 requests (1,000,000 usage rows, one request
 * each: the index's worst case) and 5,000 kept bodies, through the dashboard's own section builder.
 * Run: deno run -A scripts/bench/request_log_filters.ts [rows] [--postgres]
 * Prints seeding time, then per filter the median and max of the first page and of the 20th page (cursor).
 * `--postgres` runs the same on a throwaway PostgreSQL server (the Debian binaries must be installed).
 */
import { parseConfig, resolveHomePaths } from "../../src/config/mod.ts";
import { buildState } from "../../src/dashboard/sections.ts";
import { composeGateway } from "../../src/compose.ts";
import {
  loadSecretBox,
  type RequestLogInput,
  type RequestRowInput,
  Store,
  type UsageRow,
} from "../../src/storage/mod.ts";
import { testPostgres } from "../../tests/helpers/postgres.ts";

const ROWS = Number(Deno.args.find((a) => /^\d+$/.test(a)) ?? 1_000_000);
const POSTGRES = Deno.args.includes("--postgres");
const BODIES = 5_000;
const DAYS = 90;
const RUNS = 7;
const DAY = 86_400_000;

const dir = Deno.makeTempDirSync({ prefix: "gateway-bench-logs-" });
const yaml =
  `providers:\n  - id: acct-0\n    prefix: p0\n    api_type: chat_compat\n    base_url: http://127.0.0.1:9/v1\n    models: [m1]\n`;
Deno.writeTextFileSync(`${dir}/config.yaml`, yaml);
const paths = resolveHomePaths(`${dir}/config.yaml`, {});
const config = parseConfig(yaml, paths, () => undefined);
const postgres = POSTGRES ? await testPostgres() : null;
const store = postgres === null
  ? Store.open(paths.dbPath, loadSecretBox(paths.secretKeyPath, undefined))
  : Store.openWithSecret(await postgres.newDatabase(), paths.secretKeyPath, undefined);

const models = Array.from({ length: 12 }, (_, i) => `p${i % 4}/model-${i}`);
const accounts = Array.from({ length: 8 }, (_, i) => `acct-${i}`);
const surfaces = ["chat_completions", "responses", "messages", "generate_content", "local_runner"];
const now = Date.now();
let seed = 42;
// mulberry32: a small deterministic PRNG so runs are comparable.
const rand = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)];

const seedStart = performance.now();
const BATCH = 20_000;
for (let done = 0; done < ROWS; done += BATCH) {
  const usage: UsageRow[] = [];
  const requests: RequestRowInput[] = [];
  const logs: RequestLogInput[] = [];
  // Rows arrive roughly in time order, as they do in a live gateway.
  for (let i = done; i < Math.min(done + BATCH, ROWS); i++) {
    const ts = now - DAYS * DAY + Math.floor((i / ROWS) * DAYS * DAY);
    const model = pick(models);
    const account = pick(accounts);
    const provider = `prov-${accounts.indexOf(account) % 4}`;
    const keyId = Math.floor(rand() * 6);
    const status = rand() < 0.95 ? 200 : rand() < 0.5 ? 429 : 502;
    const input = Math.floor(rand() * 4000);
    const output = Math.floor(rand() * 800);
    const streamed = rand() < 0.6;
    const surface = pick(surfaces);
    const latency = Math.floor(rand() * 3000);
    const error = status === 200 ? "" : `upstream said ${status}`;
    const cost = (input * 3 + output * 15) / 1e6;
    usage.push({
      ts,
      clientFormat: surface,
      requestModel: model,
      model,
      providerId: provider,
      accountId: account,
      clientKeyId: keyId === 0 ? null : keyId,
      clientKeyLabel: keyId === 0 ? "(no key)" : `key-${keyId}`,
      status,
      inputTokens: input,
      cacheReadTokens: 0,
      cacheCreationTokens: 0,
      outputTokens: output,
      reasoningTokens: 0,
      estimated: false,
      cost,
      priced: true,
      latencyMs: latency,
      streamed,
      error,
    });
    requests.push({
      uid: `r${i}`,
      ts,
      clientFormat: surface,
      model,
      providerId: provider,
      accountId: account,
      clientKeyId: keyId === 0 ? null : keyId,
      clientKeyLabel: keyId === 0 ? "(no key)" : `key-${keyId}`,
      status,
      streamed,
      inputTokens: input,
      outputTokens: output,
      cost,
      ttftMs: Math.floor(latency / 3),
      latencyMs: latency,
      chain: [{ providerId: provider, accountId: account, model, status, error, latencyMs: latency }],
      error,
    });
    if (i >= ROWS - BODIES) {
      const words = Array.from({ length: 300 }, () => pick(["alpha", "beta", "gamma", "delta", "omega"]));
      if (i % 997 === 0) words.push("needle");
      logs.push({
        uid: `r${i}`,
        ts,
        clientFormat: surface,
        model,
        providerId: provider,
        accountId: account,
        status,
        latencyMs: latency,
        streamed,
        user: `key-${keyId}`,
        requestBody: JSON.stringify({ model, messages: [{ role: "user", content: words.join(" ") }] }),
        responseBody: words.slice(0, 100).join(" "),
        requestTruncated: false,
        responseTruncated: false,
        error,
        warnings: [],
      });
    }
  }
  store.transaction(() => {
    store.usage.insert(usage);
    store.requests.insert(requests);
    if (logs.length > 0) store.requestLogs.insert(logs);
  });
}
const seedMs = performance.now() - seedStart;
console.log(
  `${
    POSTGRES ? "PostgreSQL" : "SQLite"
  }: seeded ${ROWS.toLocaleString()} usage rows, ${ROWS.toLocaleString()} ` +
    `requests and ${BODIES.toLocaleString()} bodies in ${(seedMs / 1000).toFixed(1)} s`,
);
if (POSTGRES) store.db.exec("ANALYZE");

const gateway = composeGateway({ config, store, now: Date.now, env: () => undefined });
const ctx = gateway.dashboard;
const dayAgo = now - DAY;
const monthAgo = now - 30 * DAY;
const cases = [
  "",
  `from=${dayAgo}`,
  `from=${monthAgo}&to=${monthAgo + DAY}`,
  "model=p1/model-5",
  "provider=prov-2",
  "account=acct-3",
  "key=3",
  "key=none",
  "status=5xx",
  "status=4xx",
  "surface=messages",
  "stream=false",
  "model=p1/model-5&status=5xx&stream=true",
  `account=acct-1&status=4xx&from=${monthAgo}`,
  // The worst case of an index walk: the model's index is read to its end and no row has the key.
  "model=p1/model-5&key=99",
  "status=5xx&surface=messages&stream=false&key=99",
  "q=needle",
  "q=needle&model=p1/model-5",
  "q=not-in-any-body",
];

/** Builds the section once and returns its time and its next cursor. */
function timed(query: string): { ms: number; next: string | null } {
  const started = performance.now();
  const state = buildState(
    "request-logs",
    ctx,
    new URLSearchParams(`limit=50&${query}`),
    "http://x",
    "bench",
  );
  return { ms: performance.now() - started, next: state.data.next_cursor };
}

console.log(
  "filter                                                 first page ms (med/max)  20th page ms (med/max)",
);
for (const query of cases) {
  const first: number[] = [];
  const deep: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const one = timed(query);
    first.push(one.ms);
    let next = one.next;
    for (let page = 2; page < 20 && next !== null; page++) next = timed(`${query}&cursor=${next}`).next;
    if (next !== null) deep.push(timed(`${query}&cursor=${next}`).ms);
  }
  const stat = (times: number[]) => {
    if (times.length === 0) return "   (fewer pages)";
    times.sort((a, b) => a - b);
    return `${times[times.length >> 1].toFixed(1).padStart(8)} /${times.at(-1)!.toFixed(1).padStart(7)}`;
  };
  console.log(`${(query || "(none)").padEnd(55)}${stat(first).padEnd(25)}${stat(deep)}`);
}
await gateway.close();
store.close();
await postgres?.stop();
Deno.removeSync(dir, { recursive: true });
