/**
 * Bench: the wired hot path of rate limits and budgets, in-process, no network: `RateGate.admit` (the
 * key's effective limits, RPM + TPM + concurrency, the token estimate, the rate-limit headers) with its
 * permit settled and released, then `BudgetGuard.check` over the key's, its group's and the global budgets
 * (day, week, month and a 5-hour rolling window each), all read from memory. 1,000 keys in 10 groups.
 * Goal: at most 2 µs per request. Run: deno run -A scripts/bench/limits_wired.ts [keys] [checks]
 */
import { parseConfig, resolveHomePaths } from "../../src/config/mod.ts";
import { RateLimiter } from "../../src/accounting/mod.ts";
import { BudgetGuard } from "../../src/gateway/budget_guard.ts";
import { ControlPlane } from "../../src/gateway/control_plane.ts";
import { RateGate } from "../../src/gateway/rate_gate.ts";
import type { ClientIdentity } from "../../src/gateway/identity.ts";
import type { NeutralRequest } from "../../src/model/mod.ts";
import { loadSecretBox, type PeriodBudgetInput, Store } from "../../src/storage/mod.ts";

const ROUNDS = 7;

/** Measures admit + check per request; prints and returns ns per request (median of rounds). */
export function benchLimitsWired(keys = 1000, checks = 100_000): number {
  const dir = Deno.makeTempDirSync({ prefix: "gateway-bench-limits-" });
  const configPath = `${dir}/config.yaml`;
  Deno.writeTextFileSync(configPath, "server:\n  require_api_key: false\n");
  const config = parseConfig(
    "server:\n  require_api_key: false\n",
    resolveHomePaths(configPath, {}),
    () => undefined,
  );
  const store = Store.open(`${dir}/gateway.db`, loadSecretBox(`${dir}/secret.key`, undefined));
  const now0 = Date.parse("2026-11-28T05:00:00Z");
  const periods = [
    { period: "day", rollingMs: null },
    { period: "week", rollingMs: null },
    { period: "month", rollingMs: null },
    { period: "rolling", rollingMs: 5 * 3_600_000 },
  ] as const;
  const budget = (scope: PeriodBudgetInput["scope"], p: typeof periods[number]) =>
    store.budgets.upsert({ scope, period: p.period, rollingMs: p.rollingMs, limit: 1e9, warnPct: 80 }, now0);
  const groups = Array.from(
    { length: 10 },
    (_, g) => store.keyGroups.create({ name: `g${g}`, limits: { rpm: 1_000_000 } }, now0),
  );
  for (const g of groups) for (const p of periods) budget({ kind: "group", groupId: g.id }, p);
  for (const p of periods) budget({ kind: "global" }, p);
  const identities: ClientIdentity[] = [];
  for (let i = 0; i < keys; i++) {
    const key = store.keys.create({
      name: `k${i}`,
      keyHash: `hash-${i}`,
      prefix: `sk-${i}`,
      canLogin: false,
      allowedModels: [],
      role: null,
    }, now0);
    const group = groups[i % groups.length];
    store.keys.update(key.id, {
      groupId: group.id,
      limits: { rpm: 1_000_000, tpm: 1_000_000_000, maxParallel: 10_000 },
    }, now0);
    for (const p of periods) budget({ kind: "key", keyId: key.id }, p);
    identities.push({
      kind: "db",
      keyId: key.id,
      name: key.name,
      canLogin: false,
      allowedModels: [],
      groupAllowedModels: [],
      groupId: group.id,
      role: "admin",
    });
  }
  let clock = now0;
  const control = new ControlPlane(config, store, () => clock);
  const budgets = new BudgetGuard(control, store, clock);
  const gate = new RateGate({
    limiter: new RateLimiter(),
    limitsOf: (identity) =>
      identity.kind === "db" ? control.keyRateLimits(identity.keyId) : control.defaultRateLimits,
    now: () => clock,
    nextSync: () => null,
  });
  const request: NeutralRequest = {
    model: "p/m1",
    system: [{ kind: "text", text: "Be terse." }],
    messages: [{
      role: "user",
      parts: [{ kind: "text", text: "What is the capital of France? Answer in one word." }],
    }],
    tools: [],
    params: {},
    stream: false,
    source: "chat_completions",
  };
  for (const identity of identities) {
    budgets.add(identity.kind === "db" ? identity.keyId : null, 0.001, clock);
  }
  const timings: number[] = [];
  let sink = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const t0 = performance.now();
    for (let i = 0; i < checks; i++) {
      clock = now0 + round * checks + i;
      const identity = identities[i % keys];
      const admission = gate.admit(identity, "chat_completions", request);
      if (admission instanceof Promise) throw new Error("a lone process never waits for a sync");
      budgets.check(identity, clock);
      admission.permit.settle(20, clock);
      admission.permit.release();
      sink += Object.keys(admission.headers).length;
    }
    timings.push(((performance.now() - t0) * 1e6) / checks);
  }
  timings.sort((a, b) => a - b);
  const ns = timings[Math.floor(ROUNDS / 2)];
  console.log(
    `limits + budgets, wired (RateGate.admit + BudgetGuard.check, 12 budgets per key): ${
      ns.toFixed(0)
    } ns/request`,
  );
  if (sink < 0) console.log(sink);
  store.close();
  Deno.removeSync(dir, { recursive: true });
  return ns;
}

if (import.meta.main) {
  const [keys, checks] = Deno.args.map(Number);
  benchLimitsWired(keys || undefined, checks || undefined);
}
