import { assert, assertEquals } from "../helpers/assert.ts";
import { ERROR_RETRIES, errorRetryDelay } from "../../src/features/inventory/recheck.ts";
import {
  chat,
  chatAnswer,
  dashboard,
  inventoryYaml,
  push,
  startInventoryGateway,
  startUpstream,
} from "./inventory_helpers.ts";
import { waitFor } from "../helpers/wait.ts";

type Json = Record<string, unknown>;
const FLAKY = "sk-flaky-inventory-key-00000001";
const DOWN = "sk-down-inventory-key-000000001";
const GOOD = "sk-good-inventory-key-000000001";

/**
 * An upstream whose model list answers 503 to FLAKY for its first `flakyFailures` calls, 503 to DOWN
 * always, 200 to GOOD; everything else is a 401. Counts model-list calls per key. FLAKY's second call is
 * held until `releaseFlaky()`, so a test can look at the state the first one left.
 */
async function startFlakyUpstream(flakyFailures: number) {
  const models = new Map<string, number>();
  const chats: string[] = [];
  let releaseFlaky = () => {};
  const flakyHeld = new Promise<void>((resolve) => releaseFlaky = resolve);
  const upstream = await startUpstream(async ({ path, key }) => {
    if (![FLAKY, DOWN, GOOD].includes(key)) {
      return Response.json({ error: { message: "Incorrect API key provided" } }, { status: 401 });
    }
    if (path === "/v1/models") {
      const n = (models.get(key) ?? 0) + 1;
      models.set(key, n);
      if (key === FLAKY && n === 2) await flakyHeld;
      if (key === DOWN || (key === FLAKY && n <= flakyFailures)) {
        return Response.json({ error: { message: "overloaded" } }, { status: 503 });
      }
      return Response.json({ object: "list", data: [{ id: "m1" }] });
    }
    chats.push(key);
    return chatAnswer();
  });
  return { ...upstream, models, chats, releaseFlaky };
}

Deno.test("errorRetryDelay() doubles from the base for six retries, then leaves the key to the interval", () => {
  assertEquals(
    Array.from({ length: ERROR_RETRIES + 1 }, (_, i) => errorRetryDelay(i + 1, 60_000)),
    [60_000, 120_000, 240_000, 480_000, 960_000, 1_920_000, null],
  );
  assertEquals(errorRetryDelay(1, 0), null, "error_retry_s: 0 turns retries off");
});

Deno.test("a check that ends in error is retried with backoff: a transient failure routes again soon, a dead upstream is retried six times", async () => {
  const upstream = await startFlakyUpstream(2);
  const gw = await startInventoryGateway(inventoryYaml(upstream.url, "  error_retry_s: 0.03\n"));
  try {
    const pushed = await push(gw, { keys: [{ key: FLAKY, provider: "p" }, { key: DOWN, provider: "p" }] });
    const [flakyId, downId] = (pushed.body.results as Json[]).map((r) => r.id as string);
    // The first check fails and a retry comes (30 ms later); held at the upstream, it leaves the first
    // check's result in place to look at, however long that takes.
    await waitFor(() => upstream.models.get(FLAKY) === 2, { what: "the flaky key's first retry" });
    const first = await dashboard(gw, `/dashboard/api/inventory/keys/${flakyId}`);
    assertEquals((first.body.key as Json).status, "error");
    upstream.releaseFlaky();

    // 30 ms, then 60 ms: the third check succeeds.
    await waitFor(() => (upstream.models.get(FLAKY) ?? 0) >= 3, {
      what: "the flaky key retried until it answered",
    });
    await gw.management.inventory.checks.idle();
    const back = await dashboard(gw, `/dashboard/api/inventory/keys/${flakyId}`);
    assertEquals([(back.body.key as Json).status, (back.body.key as Json).routable], ["active", true]);
    assertEquals(back.body.next_check_at, null, "nothing planned after a conclusive check");
    assertEquals(await chat(gw), 200);
    assert(upstream.chats.includes(FLAKY), "the recovered key carries traffic");

    // 30 + 60 + … + 960 ms ≈ 1.9 s of retries, then nothing more until the interval (off here): once the
    // last retry is recorded, no check is planned for it.
    await waitFor(
      async () =>
        upstream.models.get(DOWN) === 1 + ERROR_RETRIES &&
        (await dashboard(gw, `/dashboard/api/inventory/keys/${downId}`)).body.next_check_at === null,
      { what: "the dead key's six retries, with nothing planned after", intervalMs: 50 },
    );
    await gw.management.inventory.checks.idle();
    assertEquals(upstream.models.get(DOWN), 1 + ERROR_RETRIES, "bounded: six retries, no more");
    assertEquals(upstream.models.get(FLAKY), 3);
  } finally {
    await gw.stop();
    await upstream.close();
  }
});

Deno.test("the scheduled check interval re-checks every key without being asked", async () => {
  const upstream = await startFlakyUpstream(0);
  // 0.0002 h = 720 ms.
  const gw = await startInventoryGateway(
    inventoryYaml(upstream.url).replace(
      "check_interval_hours: 0",
      "check_interval_hours: 0.0002",
    ),
  );
  try {
    const pushed = await push(gw, { key: GOOD, provider: "p" });
    const id = (pushed.body.results as Json[])[0].id as string;
    await gw.management.inventory.checks.idle();
    assertEquals(upstream.models.get(GOOD), 1);
    await waitFor(() => (upstream.models.get(GOOD) ?? 0) >= 3, { what: "two interval ticks to re-check it" });
    await gw.management.inventory.checks.idle();
    const history = (await dashboard(gw, `/dashboard/api/inventory/keys/${id}`)).body.history as Json[];
    assert(history.length >= 4, "one history row when added and one per check");
  } finally {
    await gw.stop();
    await upstream.close();
  }
});
