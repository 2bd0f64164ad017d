import { type Attempt, orderAccounts } from "../../src/routing/mod.ts";
import { assertEquals } from "../helpers/assert.ts";

const attempt = (id: string, prefix = "p", model = "m"): Attempt => ({
  account: { id, prefix, apiType: "chat_compat", models: [], enabled: true },
  upstreamModel: model,
  routeModel: `${prefix}/${model}`,
});
const ABC = [attempt("a"), attempt("b"), attempt("c")];
const ids = (list: Attempt[]) => list.map((a) => a.account.id).join("");

function sequence(strategy: "fill_first" | "round_robin" | "sticky_round_robin", n: number, stickyLimit = 2) {
  let cursors = {};
  const seen: string[] = [];
  for (let i = 0; i < n; i++) {
    const result = orderAccounts(ABC, cursors, { strategy, stickyLimit });
    cursors = result.cursors;
    seen.push(ids(result.attempts));
  }
  return seen;
}

Deno.test("orderAccounts() fill_first keeps config order", () => {
  assertEquals(sequence("fill_first", 3), ["abc", "abc", "abc"]);
});

Deno.test("orderAccounts() round_robin starts one account later on every request", () => {
  assertEquals(sequence("round_robin", 4), ["abc", "bca", "cab", "abc"]);
});

Deno.test("orderAccounts() sticky_round_robin stays stickyLimit requests on each account", () => {
  assertEquals(sequence("sticky_round_robin", 5, 2), ["abc", "abc", "bca", "bca", "cab"]);
});

Deno.test("orderAccounts() puts a client's preferred account first and rotates each route separately", () => {
  const mixed = [attempt("a"), attempt("b"), attempt("x", "q"), attempt("y", "q")];
  const result = orderAccounts(mixed, {}, { strategy: "fill_first", stickyLimit: 1, preferred: { p: "b" } });
  assertEquals(ids(result.attempts), "baxy");
  const rotated = orderAccounts(mixed, { q: { start: 1, used: 0 } }, {
    strategy: "round_robin",
    stickyLimit: 1,
  });
  assertEquals(ids(rotated.attempts), "abyx");
});
