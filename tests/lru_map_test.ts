import { LruMap } from "../src/lru_map.ts";
import { assertEquals } from "./helpers/assert.ts";

Deno.test("LruMap drops the least recently used entries once their weight passes the bound", () => {
  const byCount = new LruMap<string, number>(2);
  byCount.set("a", 1);
  byCount.set("b", 2);
  assertEquals(byCount.get("a"), 1); // now the most recent
  byCount.set("c", 3);
  assertEquals([byCount.get("a"), byCount.get("b"), byCount.get("c")], [1, undefined, 3]);
  byCount.set("c", 4); // a replacement weighs once
  assertEquals([byCount.size, byCount.get("a"), byCount.get("c")], [2, 1, 4]);

  const byLength = new LruMap<string, number>(10, (key) => key.length);
  byLength.set("aaaa", 1);
  byLength.set("bbbb", 2);
  byLength.set("cccc", 3); // 12 > 10: "aaaa" goes
  assertEquals([byLength.get("aaaa"), byLength.get("bbbb"), byLength.get("cccc")], [undefined, 2, 3]);
  byLength.clear();
  assertEquals(byLength.size, 0);
  byLength.set("0123456789", 1);
  assertEquals(byLength.get("0123456789"), 1);
});
