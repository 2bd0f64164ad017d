import { assert, assertEquals } from "../helpers/assert.ts";
import {
  type Account,
  allCoolingMessage,
  applyFailure,
  buildRoutingTable,
  classifyUpstreamFailure,
  emptyRoutingState,
  exhaustedMessage,
  expandModel,
  parseModelRef,
  type Resolution,
  resolveAttempts,
  type ResolveOptions,
  type RoutingState,
} from "../../src/routing/mod.ts";

const NOW = 1_700_000_000_000;

function account(id: string, prefix: string, enabled = true): Account {
  return { id, prefix, apiType: "chat_compat", models: [], enabled };
}

const table = buildRoutingTable(
  [
    account("oa-1", "openai"),
    account("oa-2", "openai"),
    account("an-1", "anthropic"),
    account("gm-1", "gemini"),
    account("gm-off", "gemini", false),
    account("old-1", "legacy", false),
    account("or-1", "openrouter"),
  ],
  [
    { name: "smart", models: ["anthropic/claude-sonnet-4", "openai/gpt-4o", "gemini/gemini-2.5-pro"] },
    { name: "broken", models: ["nobody/x", "legacy/y", "bare"] },
    { name: "partly", models: ["nobody/x", "gemini/gemini-2.0-flash"] },
  ],
  { oai: "openai" },
);

const FALLBACK: ResolveOptions = { cooldownsEnabled: true, comboStrategy: "fallback", comboStickyLimit: 1 };

function ids(resolution: Resolution): string[] {
  if (resolution.kind !== "attempts") throw new Error(`expected attempts, got ${JSON.stringify(resolution)}`);
  return resolution.attempts.map((a) => `${a.account.id}:${a.upstreamModel}`);
}

function cool(state: RoutingState, id: string, status: number, at = NOW): RoutingState {
  return applyFailure(state, id, classifyUpstreamFailure({ kind: "status", status, bodyText: "" }), at);
}

Deno.test("parseModelRef() splits at the first slash and rejects bare names", () => {
  assertEquals(parseModelRef("openrouter/meta-llama/llama-3"), {
    prefix: "openrouter",
    model: "meta-llama/llama-3",
  });
  assertEquals(parseModelRef("gpt-4o"), null);
  assertEquals(parseModelRef("/gpt-4o"), null);
  assertEquals(parseModelRef("openai/"), null);
});

Deno.test("resolveAttempts() expands a prefix to every enabled account in config order", () => {
  const r = resolveAttempts(table, "openai/gpt-4o", emptyRoutingState(), NOW, FALLBACK);
  assertEquals(ids(r), ["oa-1:gpt-4o", "oa-2:gpt-4o"]);
  if (r.kind === "attempts") assertEquals(r.attempts[0].routeModel, "openai/gpt-4o");
});

Deno.test("resolveAttempts() skips disabled accounts of a prefix", () => {
  assertEquals(ids(resolveAttempts(table, "gemini/gemini-2.5-pro", emptyRoutingState(), NOW, FALLBACK)), [
    "gm-1:gemini-2.5-pro",
  ]);
});

Deno.test("resolveAttempts() keeps slashes inside the upstream model name", () => {
  const r = resolveAttempts(
    table,
    "openrouter/meta-llama/llama-3.3-70b-instruct",
    emptyRoutingState(),
    NOW,
    FALLBACK,
  );
  assertEquals(ids(r), ["or-1:meta-llama/llama-3.3-70b-instruct"]);
});

Deno.test("resolveAttempts() routes an alias prefix to the canonical accounts", () => {
  const r = resolveAttempts(table, "oai/gpt-4o", emptyRoutingState(), NOW, FALLBACK);
  assertEquals(ids(r), ["oa-1:gpt-4o", "oa-2:gpt-4o"]);
  if (r.kind === "attempts") assertEquals(r.attempts[0].routeModel, "openai/gpt-4o");
});

Deno.test("resolveAttempts() says which prefix is unknown", () => {
  assertEquals(resolveAttempts(table, "x/y", emptyRoutingState(), NOW, FALLBACK), {
    kind: "unknown",
    message: 'Cannot route model "x/y": no provider has prefix "x"',
  });
});

Deno.test("resolveAttempts() reports a prefix whose accounts are all disabled, and a bare name", () => {
  const disabled = resolveAttempts(table, "legacy/m", emptyRoutingState(), NOW, FALLBACK);
  assertEquals(disabled, {
    kind: "unknown",
    message: 'Cannot route model "legacy/m": every provider with prefix "legacy" is disabled',
  });
  const bare = resolveAttempts(table, "gpt-4o", emptyRoutingState(), NOW, FALLBACK);
  assertEquals(bare.kind, "unknown");
});

Deno.test("resolveAttempts() allows a model the account does not list", () => {
  assertEquals(ids(resolveAttempts(table, "anthropic/brand-new-model", emptyRoutingState(), NOW, FALLBACK)), [
    "an-1:brand-new-model",
  ]);
});

Deno.test("resolveAttempts() expands a fallback combo in member order, each to all its accounts", () => {
  assertEquals(ids(resolveAttempts(table, "smart", emptyRoutingState(), NOW, FALLBACK)), [
    "an-1:claude-sonnet-4",
    "oa-1:gpt-4o",
    "oa-2:gpt-4o",
    "gm-1:gemini-2.5-pro",
  ]);
});

Deno.test("resolveAttempts() skips unroutable combo members and rejects a combo with none left", () => {
  assertEquals(ids(resolveAttempts(table, "partly", emptyRoutingState(), NOW, FALLBACK)), [
    "gm-1:gemini-2.0-flash",
  ]);
  const r = resolveAttempts(table, "broken", emptyRoutingState(), NOW, FALLBACK);
  assertEquals(r.kind, "unknown");
  if (r.kind === "unknown") assertEquals(r.message.startsWith('Cannot route combo "broken"'), true);
});

Deno.test("resolveAttempts() removes cooling accounts and keeps the rest in order", () => {
  const state = cool(emptyRoutingState(), "oa-1", 429);
  assertEquals(ids(resolveAttempts(table, "openai/gpt-4o", state, NOW + 1000, FALLBACK)), ["oa-2:gpt-4o"]);
  assertEquals(ids(resolveAttempts(table, "openai/gpt-4o", state, NOW + 60_000, FALLBACK)), [
    "oa-1:gpt-4o",
    "oa-2:gpt-4o",
  ]);
});

Deno.test("resolveAttempts() reports all_cooling with the earliest expiry rounded up", () => {
  let state = cool(emptyRoutingState(), "oa-1", 429); // until NOW + 60 s
  state = cool(state, "oa-2", 500, NOW + 500); // until NOW + 30.5 s
  const r = resolveAttempts(table, "openai/gpt-4o", state, NOW + 1000, FALLBACK);
  assertEquals(r, {
    kind: "all_cooling",
    model: "openai/gpt-4o",
    retryAfterSeconds: 30,
    accounts: ["oa-1", "oa-2"],
  });
  const later = resolveAttempts(table, "openai/gpt-4o", state, NOW + 1001, FALLBACK);
  assertEquals(later.kind === "all_cooling" && later.retryAfterSeconds, 30);
  const edge = resolveAttempts(table, "openai/gpt-4o", state, NOW + 30_000, FALLBACK);
  assertEquals(edge.kind === "all_cooling" && edge.retryAfterSeconds, 1);
});

Deno.test("resolveAttempts() reports all_cooling for a combo under the combo's name", () => {
  let state = emptyRoutingState();
  for (const id of ["an-1", "oa-1", "oa-2"]) state = cool(state, id, 401);
  state = cool(state, "gm-1", 429);
  assertEquals(resolveAttempts(table, "smart", state, NOW, FALLBACK), {
    kind: "all_cooling",
    model: "smart",
    retryAfterSeconds: 60,
    accounts: ["an-1", "oa-1", "oa-2", "gm-1"],
  });
});

Deno.test("resolveAttempts() ignores cooldowns when they are switched off, except a 402", () => {
  let state = cool(emptyRoutingState(), "oa-1", 429);
  const off = { ...FALLBACK, cooldownsEnabled: false };
  assertEquals(ids(resolveAttempts(table, "openai/gpt-4o", state, NOW, off)), ["oa-1:gpt-4o", "oa-2:gpt-4o"]);
  state = cool(state, "oa-2", 402);
  assertEquals(ids(resolveAttempts(table, "openai/gpt-4o", state, NOW, off)), ["oa-1:gpt-4o"]);
});

function roundRobin(limit: number, requests: number): string[] {
  const options: ResolveOptions = {
    cooldownsEnabled: true,
    comboStrategy: "round_robin",
    comboStickyLimit: limit,
  };
  let state = emptyRoutingState();
  const heads: string[] = [];
  for (let i = 0; i < requests; i++) {
    const r = resolveAttempts(table, "smart", state, NOW, options);
    if (r.kind !== "attempts") throw new Error("expected attempts");
    heads.push(r.attempts[0].routeModel);
    state = r.nextState;
  }
  return heads;
}

Deno.test("resolveAttempts() round_robin with sticky limit 1 rotates the start member every request", () => {
  assertEquals(roundRobin(1, 4), [
    "anthropic/claude-sonnet-4",
    "openai/gpt-4o",
    "gemini/gemini-2.5-pro",
    "anthropic/claude-sonnet-4",
  ]);
});

Deno.test("resolveAttempts() round_robin with sticky limit 3 stays on a member for three requests", () => {
  const heads = roundRobin(3, 7);
  assertEquals(heads, [
    "anthropic/claude-sonnet-4",
    "anthropic/claude-sonnet-4",
    "anthropic/claude-sonnet-4",
    "openai/gpt-4o",
    "openai/gpt-4o",
    "openai/gpt-4o",
    "gemini/gemini-2.5-pro",
  ]);
});

Deno.test("resolveAttempts() round_robin keeps the other members behind the start as fallback", () => {
  const options: ResolveOptions = {
    cooldownsEnabled: true,
    comboStrategy: "round_robin",
    comboStickyLimit: 1,
  };
  const first = resolveAttempts(table, "smart", emptyRoutingState(), NOW, options);
  if (first.kind !== "attempts") throw new Error("expected attempts");
  assertEquals(ids(resolveAttempts(table, "smart", first.nextState, NOW, options)), [
    "oa-1:gpt-4o",
    "oa-2:gpt-4o",
    "gm-1:gemini-2.5-pro",
    "an-1:claude-sonnet-4",
  ]);
});

Deno.test("resolveAttempts() fallback and fusion strategies keep the state as it was", () => {
  const state = emptyRoutingState();
  for (const comboStrategy of ["fallback", "fusion"] as const) {
    const r = resolveAttempts(table, "smart", state, NOW, { ...FALLBACK, comboStrategy });
    assertEquals(r.kind === "attempts" && r.nextState === state, true);
  }
});

Deno.test("resolveAttempts() tries one account and model once even when two members reach it", () => {
  const dup = buildRoutingTable([account("a", "p")], [{ name: "c", models: ["p/m", "p/m", "p/n"] }]);
  assertEquals(ids(resolveAttempts(dup, "c", emptyRoutingState(), NOW, FALLBACK)), ["a:m", "a:n"]);
});

Deno.test("allCoolingMessage() and exhaustedMessage() match the spec's 503 details", () => {
  assertEquals(
    allCoolingMessage("openai/gpt-4o", 42),
    "All accounts for 'openai/gpt-4o' are cooling down; retry after 42s",
  );
  assertEquals(exhaustedMessage("oa-2", "HTTP 500"), "All providers exhausted: oa-2: HTTP 500");
});

Deno.test("expandModel() remembers expansions per table, bounded by the attempts they hold", () => {
  const accounts = Array.from({ length: 1000 }, (_, i) => ({
    id: `a${i}`,
    prefix: "big",
    apiType: "chat_compat",
    models: [],
    enabled: true,
  }));
  const table = buildRoutingTable(accounts, []);
  const first = expandModel(table, "big/m1");
  const again = expandModel(table, "big/m1");
  assert(first.kind === "ok" && again.kind === "ok" && first.attempts === again.attempts);
  // A client sending endless distinct model names cannot grow the memo past its bound.
  for (let i = 0; i < 200; i++) expandModel(table, `big/m-${i}`);
  assert(table.expansions.attempts <= 65_536, String(table.expansions.attempts));
  const late = expandModel(table, "big/m-199");
  assert(late.kind === "ok" && late.attempts.length === 1000 && late.attempts[0].upstreamModel === "m-199");
});
