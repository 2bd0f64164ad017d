import { assert, assertEquals, assertRejects } from "../helpers/assert.ts";
import { JobWorker } from "../../src/gateway/job_worker.ts";
import type { ParseAnswer, ParseJob } from "../../src/http/json_parse_worker.ts";
import { waitFor } from "../helpers/wait.ts";

const PARSE_WORKER = new URL("../../src/http/json_parse_worker.ts", import.meta.url);
const bytes = (text: string) => new TextEncoder().encode(text) as Uint8Array<ArrayBuffer>;

Deno.test("a job worker stops after its idle time and starts again on the next job", async () => {
  const worker = new JobWorker<ParseJob, ParseAnswer>(PARSE_WORKER, "JSON parser", 100);
  try {
    assertEquals(worker.running, false);
    const first = await worker.run({ bytes: bytes('{"a":1}') });
    assertEquals(first, { id: 1, value: { a: 1 }, long: [], batches: 0 });
    assert(worker.running, "the first job started the thread");
    await waitFor(() => !worker.running, { what: "the idle worker to stop" });
    // A job after the stop starts a new thread and gets its answer as before.
    const second = await worker.run({ bytes: bytes("[2]") });
    assertEquals(second, { id: 2, value: [2], long: [], batches: 0 });
    assert(worker.running);
  } finally {
    worker.close();
  }
  assertEquals(worker.running, false);
});

Deno.test("a job worker with a job in flight is not stopped, however long the job takes", async () => {
  // An idle time far shorter than the job: the check runs many times while the thread is parsing.
  const worker = new JobWorker<ParseJob, ParseAnswer>(PARSE_WORKER, "JSON parser", 2);
  try {
    const items = Array.from({ length: 30_000 }, (_, i) => `item ${i}: ${"some words to parse ".repeat(25)}`);
    let answer: ParseAnswer | undefined;
    worker.run({ bytes: bytes(JSON.stringify(items)) }).then((a) => answer = a);
    // A thread stopped mid-job would never answer.
    await waitFor(() => answer !== undefined, { what: "the answer to the long job" });
    assert(answer !== undefined && "value" in answer);
    assertEquals((answer.value as unknown[]).length, 30_000);
  } finally {
    worker.close();
  }
});

Deno.test("closing a job worker fails the jobs still waiting, naming the worker", async () => {
  const worker = new JobWorker<ParseJob, ParseAnswer>(PARSE_WORKER, "JSON parser");
  const waiting = worker.run({ bytes: bytes("{}") });
  worker.close();
  await assertRejects(() => waiting, Error, "the JSON parser was closed");
  assertEquals(worker.running, false);
});
