/**
 * Bench: the routing decision alone (resolve = expand, cooldown filter, account strategy, headroom order,
 * prompt-cache affinity) with 1,000 accounts under one prefix, in-process, no network.
 * Run: deno run -A scripts/bench/routing_resolve.ts [accounts] [resolves]
 * `deno task bench` runs it too. Prints µs per resolve and resolves/s per scenario (median of rounds).
 */
import { resolveSettings } from "../../src/config/runtime_settings.ts";
import { BatchedWriter } from "../../src/gateway/batched_writer.ts";
import { RoutingService } from "../../src/gateway/routing_service.ts";
import { type Account, buildRoutingTable } from "../../src/routing/mod.ts";
import { loadSecretBox, Store } from "../../src/storage/mod.ts";

/** One scenario's result. */
export interface ResolveBenchRow {
  readonly name: string;
  readonly microsPerResolve: number;
  readonly resolvesPerSecond: number;
  readonly firstAccount: string;
}

const ROUNDS = 5;

/** Measures resolve() with `accounts` accounts on one prefix; prints and returns one row per scenario. */
export function benchRoutingResolve(accounts = 1000, resolves = 20_000): ResolveBenchRow[] {
  const dir = Deno.makeTempDirSync({ prefix: "gateway-bench-routing-" });
  const store = Store.open(`${dir}/gateway.db`, loadSecretBox(`${dir}/secret.key`, undefined));
  const writer = new BatchedWriter(store);
  const list: Account[] = Array.from({ length: accounts }, (_, i) => ({
    id: `acct-${i}`,
    prefix: "big",
    apiType: "chat_compat",
    models: [],
    enabled: true,
  }));
  const table = buildRoutingTable(list, []);
  const now = Date.now();
  const rows: ResolveBenchRow[] = [];
  const scenario = (
    name: string,
    settings: Record<string, string>,
    setup: (routing: RoutingService) => void,
    cacheKey: string | null = null,
  ) => {
    const routing = new RoutingService(store, writer, now);
    setup(routing);
    const resolved = resolveSettings(new Map(Object.entries(settings)), false);
    let first = "";
    const timings: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const start = performance.now();
      for (let i = 0; i < resolves; i++) {
        const plan = routing.resolve(table, "big/m1", resolved, now + i, undefined, cacheKey);
        if (plan.kind === "attempts") first = plan.attempts[0].account.id;
      }
      timings.push(((performance.now() - start) * 1000) / resolves);
    }
    timings.sort((a, b) => a - b);
    const micros = timings[Math.floor(ROUNDS / 2)];
    rows.push({ name, microsPerResolve: micros, resolvesPerSecond: 1e6 / micros, firstAccount: first });
  };
  const headers = (remaining: number, reset: string) => (name: string) =>
    name === "x-ratelimit-remaining-requests"
      ? String(remaining)
      : name === "x-ratelimit-limit-requests"
      ? "1000"
      : name === "x-ratelimit-reset-requests"
      ? reset
      : null;
  // Every account reports its window; every tenth is spent, so the soft sink has work to do.
  const observeAll = (routing: RoutingService) => {
    for (let i = 0; i < accounts; i++) {
      routing.quota.observe(`acct-${i}`, headers(i % 10 === 0 ? 0 : (i * 7) % 1000, "1h0m0s"), now);
    }
  };
  scenario("fill_first, no limits known", { server_account_strategy: "fill_first" }, () => {});
  scenario("round_robin, no limits known", { server_account_strategy: "round_robin" }, () => {});
  scenario("round_robin, 1,000 windows, 10% spent", { server_account_strategy: "round_robin" }, observeAll);
  scenario("quota_aware, 1,000 windows", { server_account_strategy: "quota_aware" }, observeAll);
  scenario("quota_aware + cache affinity hit", { server_account_strategy: "quota_aware" }, (routing) => {
    observeAll(routing);
    routing.bindCache("conv-1", "big", "acct-501", resolveSettings(new Map(), false), now);
  }, "conv-1");
  writer.close();
  store.close();
  Deno.removeSync(dir, { recursive: true });
  console.log(
    `Routing decision with ${accounts} accounts under one prefix (${resolves} resolves × ${ROUNDS}):`,
  );
  console.log(
    `  calibration: ${calibrate(accounts).toFixed(1)} µs for ${accounts} Map lookups (scales with load)`,
  );
  for (const r of rows) {
    console.log(
      `  ${r.name.padEnd(40)} ${r.microsPerResolve.toFixed(1).padStart(7)} µs/resolve  ${
        Math.round(r.resolvesPerSecond).toString().padStart(8)
      } resolves/s  (first: ${r.firstAccount})`,
    );
  }
  return rows;
}

/** µs for `n` Map lookups: the floor any per-account pass pays, to read the numbers on a busy machine. */
function calibrate(n: number): number {
  const ids = Array.from({ length: n }, (_, i) => `acct-${i}`);
  const map = new Map(ids.map((id, i) => [id, i]));
  let sink = 0;
  const timings: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const start = performance.now();
    for (let k = 0; k < 2000; k++) for (const id of ids) sink += map.get(id)!;
    timings.push(((performance.now() - start) * 1000) / 2000);
  }
  if (sink < 0) console.log(sink);
  return timings.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)];
}

if (import.meta.main) {
  benchRoutingResolve(Number(Deno.args[0] ?? 1000), Number(Deno.args[1] ?? 20_000));
}
