import { DeadlineWatchdog } from "../../src/executors/deadline_watchdog.ts";
import { assertEquals } from "../helpers/assert.ts";

Deno.test("DeadlineWatchdog expires a passed deadline once and leaves pushed-back ones alone", async () => {
  const watchdog = new DeadlineWatchdog();
  const fired: string[] = [];
  watchdog.watch(Date.now() + 50, () => fired.push("short"));
  const pushed = watchdog.watch(Date.now() + 50, () => fired.push("pushed"));
  const removed = watchdog.watch(Date.now() + 50, () => fired.push("removed"));
  watchdog.unwatch(removed);
  pushed.deadline = Date.now() + 10_000;
  await new Promise((r) => setTimeout(r, 300));
  assertEquals(fired, ["short"]);
  watchdog.unwatch(pushed);
});
