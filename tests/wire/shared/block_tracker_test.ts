import { assertEquals } from "../../helpers/assert.ts";
import type { StreamEvent } from "../../../src/model/mod.ts";
import { BlockTracker } from "../../../src/wire/shared/mod.ts";

Deno.test("BlockTracker.open() keeps one block open: a new key closes the open block and takes the next index", () => {
  const events: StreamEvent[] = [];
  const emit = (event: StreamEvent) => events.push(event);
  const blocks = new BlockTracker();
  assertEquals(blocks.open("reasoning", "reasoning", emit, { family: "google" }), 0);
  assertEquals(blocks.open("reasoning", "reasoning", emit), 0);
  assertEquals(blocks.open("text", "text", emit), 1);
  assertEquals(blocks.open("i0", "toolCall", emit, { id: "call_1", name: "f" }), 2);
  blocks.close(emit);
  blocks.close(emit);
  assertEquals(events, [
    { type: "blockStart", index: 0, kind: "reasoning", family: "google" },
    { type: "blockEnd", index: 0 },
    { type: "blockStart", index: 1, kind: "text" },
    { type: "blockEnd", index: 1 },
    { type: "blockStart", index: 2, kind: "toolCall", id: "call_1", name: "f" },
    { type: "blockEnd", index: 2 },
  ]);
});

Deno.test("BlockTracker.whole() closes the open block, then starts, fills and ends a block of its own", () => {
  const events: StreamEvent[] = [];
  const emit = (event: StreamEvent) => events.push(event);
  const blocks = new BlockTracker();
  blocks.open("text", "text", emit);
  const index = blocks.whole("toolCall", emit, { id: "c", name: "f" }, (i) => {
    emit({ type: "argumentsDelta", index: i, json: "{}" });
  });
  assertEquals(index, 1);
  assertEquals(blocks.open("text", "text", emit), 2, "text after a whole block is a new block");
  assertEquals(events, [
    { type: "blockStart", index: 0, kind: "text" },
    { type: "blockEnd", index: 0 },
    { type: "blockStart", index: 1, kind: "toolCall", id: "c", name: "f" },
    { type: "argumentsDelta", index: 1, json: "{}" },
    { type: "blockEnd", index: 1 },
    { type: "blockStart", index: 2, kind: "text" },
  ]);
});
