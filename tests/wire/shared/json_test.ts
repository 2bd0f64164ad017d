import { tryParseJson } from "../../../src/wire/shared/json.ts";
import { MAX_JSON_DEPTH } from "../../../src/wire/shared/limits.ts";
import { assertEquals } from "../../helpers/assert.ts";

const nested = (levels: number, open = "[", close = "]") => open.repeat(levels) + close.repeat(levels);

Deno.test("tryParseJson takes nesting up to MAX_JSON_DEPTH and refuses one level more, short text or long", () => {
  // The shortest texts at the limit and just past it: 2 × levels characters.
  assertEquals(JSON.stringify(tryParseJson(nested(MAX_JSON_DEPTH))), nested(MAX_JSON_DEPTH));
  assertEquals(tryParseJson(nested(MAX_JSON_DEPTH + 1)), undefined);
  // The same depths in longer texts (padding that adds no nesting).
  const padded = (levels: number) => `{"pad":"${"x".repeat(300)}","v":${nested(levels - 1)}}`;
  assertEquals((tryParseJson(padded(MAX_JSON_DEPTH)) as { pad: string }).pad.length, 300);
  assertEquals(tryParseJson(padded(MAX_JSON_DEPTH + 1)), undefined);
  assertEquals(tryParseJson('{"a":[1,{"b":null}]}'), { a: [1, { b: null }] });
  assertEquals(tryParseJson("{not json"), undefined);
});
