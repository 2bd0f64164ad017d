/**
 * The dashboard contract holds at compile time: a state section's data has that section's type only, and a
 * call with another route's body or a missing path parameter does not type-check. `deno check` (part of
 * `deno task check`) proves the `@ts-expect-error` lines below still fail; the test runs what does compile.
 */
import type { AnswerOf, StateEnvelope, StateSections } from "../../src/dashboard/contract/mod.ts";
import { STATE_SECTIONS } from "../../src/dashboard/sections.ts";
import type { CallArgs } from "../../ui/src/api/client.ts";
import { assertEquals } from "../helpers/assert.ts";

Deno.test("contract: each state section's data has its own type, and every section has a builder", () => {
  const envelope = { data: { keys: [], static_keys: [] } } as unknown as StateEnvelope<"keys">;
  const keys: StateSections["keys"] = envelope.data;
  // @ts-expect-error the keys section's data is not the providers section's
  const wrong: StateSections["providers"] = envelope.data;
  assertEquals([keys.keys.length, wrong === undefined], [0, false]);
  assertEquals(STATE_SECTIONS.length, 16);
});

Deno.test("contract: a route's arguments and answer are the contract's for that route", () => {
  const combo: CallArgs<"POST /combos"> = { body: { name: "duo", models: ["p/m1"] } };
  // @ts-expect-error a combo needs its models
  const noModels: CallArgs<"POST /combos"> = { body: { name: "duo" } };
  // @ts-expect-error a path with :id needs the id
  const noId: CallArgs<"DELETE /combos/:id"> = {};
  const deleted: CallArgs<"DELETE /combos/:id"> = { params: { id: 3 } };
  // @ts-expect-error a settings value has the setting's type
  const badSetting: CallArgs<"POST /settings"> = { body: { saver_caveman_enabled: "yes" } };
  const created = { ok: true, key: {}, plaintext: "sk" } as unknown as AnswerOf<"POST /v2/keys">;
  assertEquals(created.plaintext, "sk");
  assertEquals([combo, noModels, noId, deleted, badSetting].length, 5);
});
