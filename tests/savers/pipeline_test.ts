import { assert, assertEquals } from "../helpers/assert.ts";
import type { NeutralRequest } from "../../src/model/mod.ts";
import { buildSavers, mergeStat, runSavers } from "../../src/savers/mod.ts";
import type { Saver, SaverName, SaverStatEvent, SaverStats } from "../../src/savers/mod.ts";
import { request, text } from "./request_fixture.ts";

function appending(name: SaverName, log: string[]): Saver {
  return {
    name,
    apply: (r: NeutralRequest) => {
      log.push(name);
      return { ...r, system: [...r.system, text(name)] };
    },
  };
}

Deno.test("runSavers() runs savers as Headroom, RTK, Caveman, Ponytail whatever order they are given in", async () => {
  const log: string[] = [];
  const savers = (["ponytail", "rtk", "caveman", "headroom"] as const).map((n) => appending(n, log));
  const out = await runSavers(request(), savers, {}, () => {});
  assertEquals(log, ["headroom", "rtk", "caveman", "ponytail"]);
  assertEquals(out.system.map((p) => p.text), ["headroom", "rtk", "caveman", "ponytail"]);
});

Deno.test("runSavers() keeps the request from before a saver that throws and reports the error once", async () => {
  const log: string[] = [];
  const failing: Saver = {
    name: "caveman",
    apply: (r) => {
      void { ...r, system: [] };
      throw new Error("broken saver");
    },
  };
  const errors: [SaverName, unknown][] = [];
  const events: SaverStatEvent[] = [];
  const out = await runSavers(
    request([text("base")]),
    [appending("rtk", log), failing, appending("ponytail", log)],
    {},
    (e) => events.push(e),
    (name, error) => errors.push([name, error]),
  );
  assertEquals(out.system.map((p) => p.text), ["base", "rtk", "ponytail"]);
  assertEquals(errors.length, 1);
  assertEquals(errors[0][0], "caveman");
  assertEquals(events.map((e) => [e.saver, e.changed, e.failed]), [
    ["rtk", true, false],
    ["caveman", false, true],
    ["ponytail", true, false],
  ]);
  assertEquals(events[1].bytesBefore, events[1].bytesAfter);
});

Deno.test("runSavers() survives a saver whose promise rejects", async () => {
  const rejecting: Saver = { name: "headroom", apply: () => Promise.reject(new Error("down")) };
  const input = request([text("base")]);
  const out = await runSavers(input, [rejecting], {}, () => {});
  assertEquals(out, input);
});

Deno.test("runSavers() answers without a promise when every saver is synchronous, and resumes after an async one", async () => {
  const log: string[] = [];
  const sync = runSavers(request(), [appending("rtk", log), appending("caveman", log)], {}, () => {});
  assert(!(sync instanceof Promise), "synchronous savers must not cost a promise");
  assertEquals(sync.system.map((p) => p.text), ["rtk", "caveman"]);
  const remote: Saver = {
    name: "headroom",
    apply: async (r) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      log.push("headroom");
      return { ...r, system: [...r.system, text("headroom")] };
    },
  };
  log.length = 0;
  const events: SaverStatEvent[] = [];
  const pending = runSavers(
    request(),
    [appending("ponytail", log), remote, appending("rtk", log)],
    {},
    (e) => events.push(e),
  );
  assert(pending instanceof Promise);
  const out = await pending;
  assertEquals(log, ["headroom", "rtk", "ponytail"]);
  assertEquals(out.system.map((p) => p.text), ["headroom", "rtk", "ponytail"]);
  assertEquals(events.map((e) => e.saver), ["headroom", "rtk", "ponytail"]);
});

Deno.test("runSavers() measures bytes only for savers that changed the request", async () => {
  const events: SaverStatEvent[] = [];
  const noop: Saver = { name: "rtk", apply: (r) => r };
  const base = request([text("base")]);
  await runSavers(
    base,
    [noop, appending("caveman", []), appending("ponytail", [])],
    {},
    (e) => events.push(e),
  );
  assertEquals([events[0].changed, events[0].bytesBefore, events[0].bytesAfter], [false, 0, 0]);
  assertEquals(
    events[1].bytesBefore,
    new TextEncoder().encode(JSON.stringify({ system: base.system, messages: base.messages })).length,
  );
  assert(events[1].bytesAfter > events[1].bytesBefore);
  assertEquals(
    events[2].bytesBefore,
    events[1].bytesAfter,
    "the size after one saver is the size before the next",
  );
});

Deno.test("mergeStat() accumulates requests, bytes and errors", () => {
  let stats: SaverStats | undefined;
  stats = mergeStat(stats, { saver: "rtk", bytesBefore: 100, bytesAfter: 60, changed: true, failed: false });
  stats = mergeStat(stats, { saver: "rtk", bytesBefore: 50, bytesAfter: 50, changed: false, failed: true });
  assertEquals(stats, { saver: "rtk", requests: 2, bytesBefore: 150, bytesAfter: 110, errors: 1 });
});

Deno.test("buildSavers() builds only the enabled savers, in pipeline order", () => {
  const fetchStub: typeof fetch = () => Promise.reject(new Error("unused"));
  const all = buildSavers({
    rtk: true,
    caveman: { enabled: true, level: "ultra" },
    ponytail: { enabled: true, level: "lite" },
    headroom: { enabled: true, url: "http://127.0.0.1:8787" },
  }, { fetch: fetchStub });
  assertEquals(all.map((s) => s.name), ["headroom", "rtk", "caveman", "ponytail"]);
  const defaults = buildSavers({
    rtk: true,
    caveman: { enabled: false, level: "full" },
    ponytail: { enabled: false, level: "full" },
    headroom: { enabled: false, url: "http://127.0.0.1:8787" },
  }, { fetch: fetchStub });
  assertEquals(defaults.map((s) => s.name), ["rtk"]);
});
