import { DeadlineWatchdog } from "../../src/executors/deadline_watchdog.ts";
import { assertEquals } from "../helpers/assert.ts";
import { waitFor } from "../helpers/wait.ts";

Deno.test("DeadlineWatchdog expires a passed deadline once and leaves pushed-back ones alone", async () => {
  const watchdog = new DeadlineWatchdog();
  const fired: string[] = [];
  watchdog.watch(performance.now() + 50, () => fired.push("short"));
  const pushed = watchdog.watch(performance.now() + 50, () => fired.push("pushed"));
  const removed = watchdog.watch(performance.now() + 50, () => fired.push("removed"));
  watchdog.unwatch(removed);
  pushed.deadline = performance.now() + 10_000;
  await waitFor(() => fired.length > 0, { what: "the passed deadline to expire" });
  // The same tick looked at the other two: one was pushed back, one is gone.
  assertEquals(fired, ["short"]);
  watchdog.unwatch(pushed);
});

Deno.test("DeadlineWatchdog reuses freed slots, ignores a second unwatch and runs long-running work once", async () => {
  const watchdog = new DeadlineWatchdog();
  const fired: string[] = [];
  const first = watchdog.watch(performance.now() + 10_000, () => fired.push("first"));
  watchdog.unwatch(first);
  watchdog.unwatch(first);
  assertEquals(watchdog.size, 0);
  const second = watchdog.watch(performance.now() + 10_000, () => fired.push("second"), {
    afterMs: 0,
    run: () => fired.push("long"),
  });
  const third = watchdog.watch(performance.now() + 50, () => fired.push("third"));
  // A stale handle must not free the slot its successor now holds.
  watchdog.unwatch(first);
  assertEquals(watchdog.size, 2);
  await waitFor(() => fired.includes("third"), { what: "the third deadline to expire" });
  assertEquals(fired, ["long", "third"]);
  assertEquals(watchdog.size, 1);
  watchdog.unwatch(second);
  watchdog.unwatch(third);
  assertEquals(watchdog.size, 0);
});
