import { assertEquals } from "../helpers/assert.ts";
import { inventoryYaml, push, startInventoryGateway, startUpstream } from "./inventory_helpers.ts";

/** An upstream that never answers: each request waits until its caller gives up. Tracks requests in flight. */
async function startSlowUpstream() {
  let inFlight = 0;
  let max = 0;
  let seen = 0;
  const upstream = await startUpstream(async ({ request, closing }) => {
    seen++;
    inFlight++;
    max = Math.max(max, inFlight);
    await new Promise<void>((done) => {
      if (request.signal.aborted) done();
      request.signal.addEventListener("abort", () => done(), { once: true });
      closing.addEventListener("abort", () => done(), { once: true });
    });
    inFlight--;
    return new Response("too late", { status: 504 });
  });
  return { ...upstream, maxInFlight: () => max, seen: () => seen };
}

Deno.test("200 keys against an upstream that never answers: at most check_concurrency checks at once, each ends at its timeout", async () => {
  const upstream = await startSlowUpstream();
  const gw = await startInventoryGateway(
    inventoryYaml(upstream.url, "  check_concurrency: 8\n  check_timeout_s: 0.2\n"),
  );
  try {
    const keys = Array.from(
      { length: 200 },
      (_, i) => ({ key: `sk-slow-key-${String(i).padStart(6, "0")}-abcdef`, provider: "p" }),
    );
    const pushed = await push(gw, { keys });
    assertEquals((pushed.body.summary as Record<string, number>).registered, 200);
    await gw.management.inventory.checks.idle();
    assertEquals(upstream.maxInFlight(), 8, "the concurrency bound held (and was used)");
    assertEquals(
      upstream.seen(),
      201,
      "one model-list call per key (and the provider's mirrored key); no probe after a timeout",
    );
    const rows = gw.runtime.control.store.db.prepare(
      "SELECT status, last_error, count(*) AS n FROM upstream_keys GROUP BY 1, 2",
    ).all() as { status: string; last_error: string; n: number }[];
    assertEquals(rows.map((r) => [r.status, r.last_error, Number(r.n)]), [[
      "error",
      "Connection timeout",
      201,
    ]]);
    const history = gw.runtime.control.store.db.prepare(
      "SELECT count(*) AS n FROM upstream_key_history WHERE new_status = 'error'",
    ).get() as { n: number };
    assertEquals(Number(history.n), 201, "a history row per check");
    assertEquals(
      gw.runtime.table.accountsByPrefix.get("p")!.map((a) => a.id),
      ["acct-a"],
      "no key became an account",
    );
  } finally {
    await gw.stop();
    await upstream.close();
  }
});
