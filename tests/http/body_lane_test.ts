import { assertEquals } from "../helpers/assert.ts";
import { BodyLane } from "../../src/http/body_lane.ts";
import { waitFor } from "../helpers/wait.ts";

Deno.test("BodyLane admits claims within its budget at once and the rest in arrival order as bytes come back", async () => {
  const lane = new BodyLane(10);
  const first = await lane.acquire(6);
  const admitted: string[] = [];
  const second = lane.acquire(6).then((release) => (admitted.push("second"), release));
  // Fits the budget, but waits behind the earlier claim: arrival order, so a big body is never starved.
  const third = lane.acquire(2).then((release) => (admitted.push("third"), release));
  await new Promise((resolve) => setTimeout(resolve, 0));
  assertEquals([admitted, lane.inUse], [[], 6]);
  first();
  first(); // a second release gives nothing back twice
  await waitFor(() => admitted.length === 2, { what: "both waiting claims admitted" });
  assertEquals([admitted, lane.inUse], [["second", "third"], 8]);
  (await second)();
  (await third)();
  assertEquals(lane.inUse, 0);
});

Deno.test("BodyLane admits a claim larger than its budget alone", async () => {
  const lane = new BodyLane(10);
  const release = await lane.acquire(50);
  assertEquals(lane.inUse, 10);
  let admitted = false;
  const next = lane.acquire(1).then((r) => (admitted = true, r));
  await new Promise((resolve) => setTimeout(resolve, 0));
  assertEquals(admitted, false);
  release();
  (await next)();
  assertEquals(lane.inUse, 0);
});
