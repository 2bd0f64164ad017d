import { assertEquals } from "../helpers/assert.ts";
import { BatchedWriter } from "../../src/gateway/batched_writer.ts";
import { openDatabase, SecretBox, Store } from "../../src/storage/mod.ts";

function memoryStore(): Store {
  return new Store(openDatabase(":memory:"), new SecretBox(new Uint8Array(32)));
}

Deno.test("BatchedWriter.collect: one write per batch gets every item of that batch, in order", () => {
  const store = memoryStore();
  const writer = new BatchedWriter(store);
  const calls: number[][] = [];
  const write = (items: number[]) => calls.push([...items]);
  writer.collect(write, 1);
  writer.collect(write, 2);
  writer.collect(write, 3);
  assertEquals(writer.pending, 1);
  writer.flush();
  writer.collect(write, 4);
  writer.close();
  assertEquals(calls, [[1, 2, 3], [4]]);
  store.close();
});

Deno.test("BatchedWriter.collect: a failed batch is dropped, and the next item starts a new batch", () => {
  const store = memoryStore();
  const writer = new BatchedWriter(store);
  const written: string[][] = [];
  const write = (items: string[]) => written.push([...items]);
  const originalError = console.error;
  const errors: string[] = [];
  console.error = (message: string) => errors.push(message);
  try {
    writer.enqueue(() => {
      throw new Error("disk full");
    });
    writer.collect(write, "lost");
    writer.flush();
    // Before the fix this item joined the dropped list and nothing was ever queued again.
    writer.collect(write, "kept");
    writer.flush();
  } finally {
    console.error = originalError;
  }
  assertEquals(written, [["kept"]]);
  assertEquals(errors, ["error: dropped 2 queued writes: disk full"]);
  store.close();
});
