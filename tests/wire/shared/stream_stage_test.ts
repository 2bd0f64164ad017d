import { chainSteps, type StageSteps, StreamStage } from "../../../src/wire/shared/mod.ts";
import { assertEquals } from "../../helpers/assert.ts";

const doubler: StageSteps<number, number> = {
  transform(n, out) {
    out.enqueue(n);
    out.enqueue(n);
  },
  flush(out) {
    out.enqueue(0);
  },
};

function labeller(): StageSteps<number, string> {
  let seen = 0;
  return {
    transform(n, out) {
      seen++;
      out.enqueue(`#${n}`);
    },
    flush(out) {
      out.enqueue(`seen ${seen}`);
    },
  };
}

Deno.test("chainSteps() runs the second step on everything the first emits, flushes included, in order", () => {
  const chain = chainSteps(doubler, labeller());
  const got: string[] = [];
  const out = { enqueue: (s: string) => got.push(s) };
  chain.transform(1, out);
  chain.transform(2, out);
  chain.flush?.(out);
  assertEquals(got, ["#1", "#1", "#2", "#2", "#0", "seen 5"]);
});

Deno.test("a StreamStage piped as a TransformStream gives what its steps give when run directly", async () => {
  const piped = await Array.fromAsync(
    ReadableStream.from([3, 4]).pipeThrough(new StreamStage(chainSteps(doubler, labeller()))),
  );
  assertEquals(piped, ["#3", "#3", "#4", "#4", "#0", "seen 5"]);
});
