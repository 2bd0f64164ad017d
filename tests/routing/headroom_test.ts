import { assert, assertEquals } from "../helpers/assert.ts";
import {
  assessHeadroom,
  type Attempt,
  type Headroom,
  type HeadroomLookup,
  isSpent,
  type LimitWindow,
  OBSERVED_TTL_MS,
  orderByHeadroom,
  preferAccount,
  RANKED_AHEAD,
  windowBounds,
} from "../../src/routing/mod.ts";

const NOW = Date.UTC(2026, 10, 25, 12, 0, 0); // a Wednesday

function win(id: string, fields: Partial<LimitWindow>): LimitWindow {
  return {
    id,
    unit: "requests",
    limit: null,
    remaining: null,
    usedFraction: null,
    resetAtMs: null,
    windowMs: null,
    rejected: false,
    ...fields,
  };
}

Deno.test("windowBounds() gives fixed UTC 5h buckets, days, Monday weeks and calendar months", () => {
  // 5-hour buckets count from the epoch: 2026-11-25 12:00 UTC happens to start one.
  assertEquals(windowBounds("5h", NOW), { start: NOW, end: Date.UTC(2026, 10, 25, 17) });
  assertEquals(windowBounds("5h", NOW - 1).start, Date.UTC(2026, 10, 25, 7));
  assertEquals(windowBounds("daily", NOW), { start: Date.UTC(2026, 10, 25), end: Date.UTC(2026, 10, 26) });
  assertEquals(windowBounds("weekly", NOW), { start: Date.UTC(2026, 10, 23), end: Date.UTC(2026, 10, 30) });
  assertEquals(windowBounds("monthly", NOW), { start: Date.UTC(2026, 10, 1), end: Date.UTC(2026, 11, 1) });
  // Property: every instant lies inside its own window, and a window's end starts the next one.
  for (const kind of ["5h", "daily", "weekly", "monthly"] as const) {
    for (let t = NOW; t < NOW + 90 * 86_400_000; t += 7_777_777) {
      const { start, end } = windowBounds(kind, t);
      assert(start <= t && t < end, `${kind} ${t}`);
      assertEquals(windowBounds(kind, end).start, end);
    }
  }
});

Deno.test("assessHeadroom() takes the tightest window and names why an empty one goes last", () => {
  const h = assessHeadroom(
    {
      windows: [
        win("requests", { limit: 100, remaining: 40, resetAtMs: NOW + 60_000 }),
        win("5h", { unit: "percent", usedFraction: 0.9, resetAtMs: NOW + 3_600_000 }),
      ],
      observedAt: NOW,
    },
    undefined,
    undefined,
    NOW,
  );
  assertEquals([Math.round(h.fraction! * 100), h.resetAtMs, h.reason], [10, NOW + 3_600_000, null]);
  assertEquals(h.validUntil, NOW + 60_000);
  const spent = assessHeadroom(
    { windows: [win("7d", { unit: "percent", rejected: true, resetAtMs: NOW + 10 })], observedAt: NOW },
    undefined,
    undefined,
    NOW,
  );
  assertEquals([spent.fraction, spent.reason], [0, "upstream 7d window rejected"]);
});

Deno.test("assessHeadroom() forgets windows past their reset and resetless ones after the TTL", () => {
  const observed = {
    windows: [
      win("requests", { limit: 10, remaining: 0, resetAtMs: NOW + 5_000 }),
      win("tokens", { remaining: 0 }),
    ],
    observedAt: NOW,
  };
  assertEquals(assessHeadroom(observed, undefined, undefined, NOW).fraction, 0);
  assertEquals(assessHeadroom(observed, undefined, undefined, NOW + 6_000).windows.map((w) => w.id), [
    "tokens",
  ]);
  assertEquals(assessHeadroom(observed, undefined, undefined, NOW + OBSERVED_TTL_MS).fraction, null);
});

Deno.test("assessHeadroom() checks configured rpm, rpd and quota windows against the gateway's counts", () => {
  const h = assessHeadroom(undefined, {
    minute: 3,
    minuteFreesAt: NOW + 20_000,
    day: 10,
    quotas: { "5h:tokens": 900 },
  }, {
    rpm: 3,
    rpd: 100,
    quotas: [{ window: "5h", metric: "tokens", limit: 1000 }],
  }, NOW);
  assertEquals(h.windows.map((w) => [w.id, w.remaining, w.resetAtMs]), [
    ["rpm", 0, NOW + 20_000],
    ["rpd", 90, Date.UTC(2026, 10, 26)],
    ["5h:tokens", 100, Date.UTC(2026, 10, 25, 17)],
  ]);
  assertEquals([h.fraction, h.reason], [0, "configured rpm limit used up (3 of 3)"]);
  assertEquals(h.validUntil, NOW + 20_000);
});

const acct = (id: string, route = "p/m"): Attempt => ({
  account: { id, prefix: "p", apiType: "chat_compat", models: [], enabled: true },
  upstreamModel: "m",
  routeModel: route,
});
const room = (fraction: number | null, resetAtMs: number | null = null): Headroom => ({
  fraction,
  resetAtMs,
  reason: null,
  windows: [],
  validUntil: Infinity,
});
/** orderByHeadroom() with the spent set the tracker would keep for these headrooms. */
function order(list: readonly Attempt[], lookup: HeadroomLookup, quotaAware: boolean): readonly Attempt[] {
  const spent = new Set(list.filter((a) => isSpent(lookup(a.account.id))).map((a) => a.account.id));
  return orderByHeadroom(list, lookup, quotaAware, spent);
}
const ids = (attempts: readonly Attempt[]) => attempts.map((a) => a.account.id).join("");

Deno.test("order() sinks spent accounts in order, per route, and returns the input when none is", () => {
  const list = [acct("a"), acct("b"), acct("c"), acct("d", "q/m"), acct("e", "q/m")];
  const table: Record<string, Headroom> = { a: room(0), c: room(0), d: room(0) };
  assertEquals(ids(order(list, (id) => table[id], false)), "baced");
  const fine = [acct("x"), acct("y")];
  assert(order(fine, () => room(0.5), false) === fine);
  // All spent: nothing moves, nothing is dropped.
  assertEquals(ids(order(list, () => room(0), false)), "abcde");
});

Deno.test("order() under quota_aware ranks by headroom, then earliest reset, then strategy order", () => {
  const list = [acct("a"), acct("b"), acct("c"), acct("d")];
  const table: Record<string, Headroom> = {
    a: room(0.2, NOW + 10),
    b: room(0.8, NOW + 500),
    c: room(0.8, NOW + 100),
  };
  // d is unknown: counted as full, so it is tried and learns its limits.
  assertEquals(ids(order(list, (id) => table[id], true)), "dcba");
});

Deno.test("preferAccount() moves a healthy bound account to the front of its run only", () => {
  const list = [acct("a"), acct("b"), acct("c")];
  assertEquals(ids(preferAccount(list, "c", () => undefined)), "cab");
  assertEquals(ids(preferAccount(list, "c", () => room(0))), "abc");
  assertEquals(ids(preferAccount(list, "zz", () => undefined)), "abc");
  const mixed = [acct("a", "x/m"), acct("b"), acct("c")];
  assertEquals(ids(preferAccount(mixed, "c", () => undefined)), "acb");
});

Deno.test("order() under quota_aware ranks the best RANKED_AHEAD; the rest keep order, spent last", () => {
  const list = Array.from({ length: 40 }, (_, i) => acct(`a${i}`));
  // a39..a20 have rising headroom; a0..a19 are spent except a5.
  const fraction = (i: number) => (i >= 20 ? i / 100 : i === 5 ? 0.01 : 0);
  const ordered = order(list, (id) => room(fraction(Number(id.slice(1)))), true).map((a) => a.account.id);
  assertEquals(ordered.length, 40);
  assertEquals(ordered.slice(0, RANKED_AHEAD), Array.from({ length: RANKED_AHEAD }, (_, k) => `a${39 - k}`));
  const rest = ordered.slice(RANKED_AHEAD);
  // Behind the ranked ones: the unranked fit accounts in config order, then every spent one.
  assertEquals(rest.slice(0, 5), ["a5", "a20", "a21", "a22", "a23"]);
  assert(rest.slice(5).every((id) => fraction(Number(id.slice(1))) === 0 || Number(id.slice(1)) >= 20));
  assertEquals(new Set(ordered).size, 40);
});

Deno.test("orderByHeadroom() property: a permutation that never drops an account; spent last; best first", () => {
  let seed = 7;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  for (let trial = 0; trial < 300; trial++) {
    const n = 1 + Math.floor(rand() * 40);
    const list = Array.from({ length: n }, (_, i) => acct(`a${i}`));
    const table: Record<string, Headroom | undefined> = {};
    for (const a of list) {
      const r = rand();
      // A mix of unknown, spent and partly used accounts with a few distinct resets.
      table[a.account.id] = r < 0.2
        ? undefined
        : room(r < 0.45 ? 0 : Math.round(r * 10) / 10, NOW + Math.floor(rand() * 3) * 1000);
    }
    const lookup = (id: string) => table[id];
    for (const quotaAware of [false, true]) {
      const out = order(list, lookup, quotaAware);
      assertEquals([...out].map((a) => a.account.id).sort(), list.map((a) => a.account.id).sort());
      const spentAt = out.map((a) => isSpent(lookup(a.account.id)));
      const firstSpent = spentAt.indexOf(true);
      if (firstSpent >= 0 && spentAt.some((s) => !s)) {
        // Fit accounts all come before spent ones (unless every account is spent).
        assert(spentAt.slice(firstSpent).every((s) => s), `trial ${trial} ${quotaAware}`);
      }
      if (quotaAware) {
        const best = Math.max(...list.map((a) => lookup(a.account.id)?.fraction ?? 1));
        assertEquals(lookup(out[0].account.id)?.fraction ?? 1, best);
      }
    }
  }
});
