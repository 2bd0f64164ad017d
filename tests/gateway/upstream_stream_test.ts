import type { UpstreamBody } from "../../src/executors/call_upstream.ts";
import { type StreamSummary, StreamTally } from "../../src/gateway/stream_meter.ts";
import { openStream } from "../../src/gateway/upstream_stream.ts";
import type { StageSteps } from "../../src/wire/shared/mod.ts";
import type { Frame } from "../../src/wire/framing/mod.ts";
import { drainFrames, type FrameSource } from "../../src/gateway/answer.ts";
import { assert, assertEquals } from "../helpers/assert.ts";

/** An upstream body serving `chunks` (an Error in the list is thrown by that read). */
function fakeBody(chunks: (string | Error)[]): UpstreamBody & { cancelled: boolean } {
  const queue = [...chunks];
  const body = {
    cancelled: false,
    read() {
      const next = queue.shift();
      if (next === undefined) return Promise.resolve(null);
      if (next instanceof Error) return Promise.reject(next);
      return Promise.resolve(new TextEncoder().encode(next));
    },
    cancel() {
      body.cancelled = true;
    },
    committed() {},
  };
  return body;
}

/** Steps that echo each chunk's text and tell the tally: "c" commits, "e" is an error, "-" nothing. */
function echoSteps(tally: StreamTally): StageSteps<Uint8Array, Frame> {
  return {
    transform(chunk, out) {
      const text = new TextDecoder().decode(chunk);
      if (text.startsWith("c")) tally.content();
      if (text.startsWith("e")) tally.error(`upstream said ${text}`);
      out.enqueue({ data: text });
    },
  };
}

/** Every frame's data of a source, joined: what the client would read. */
async function textOf(source: FrameSource): Promise<string> {
  return (await drainFrames(source)).map((frame) => frame.data).join("");
}

/** The client's last frame when the stream breaks: the message it carries, as a codec's error event would. */
const failure = (message: string): Frame[] => [{ data: `failed: ${message}` }];

function setup() {
  const summaries: StreamSummary[] = [];
  const tally = new StreamTally((summary) => summaries.push(summary));
  return { tally, summaries, steps: echoSteps(tally) };
}

Deno.test("openStream() falls back on an error before any content and cancels the upstream", async () => {
  const { tally, steps, summaries } = setup();
  const body = fakeBody(["-role", "e-overloaded", "c-late"]);
  const opened = await openStream(body, steps, tally, failure);
  assertEquals(opened, { kind: "error", message: "upstream said e-overloaded" });
  assert(body.cancelled);
  assertEquals(summaries, [], "nothing is reported for an attempt that falls back");
});

Deno.test("openStream() reports an end without content, and a broken body before content, as failures", async () => {
  const empty = setup();
  assertEquals(await openStream(fakeBody(["-a", "-b"]), empty.steps, empty.tally, failure), {
    kind: "empty",
    message: "upstream stream ended without any content",
  });
  const broken = setup();
  assertEquals(await openStream(fakeBody(["-a", new Error("reset")]), broken.steps, broken.tally, failure), {
    kind: "error",
    message: "upstream stream broke: reset",
  });
});

Deno.test("openStream() commits at the first content and pumps the rest, buffered text first", async () => {
  const { tally, steps, summaries } = setup();
  const opened = await openStream(
    fakeBody(["-role|", "c-hello|", "c-world|", "e-late"]),
    steps,
    tally,
    failure,
  );
  assertEquals(opened.kind, "committed");
  if (opened.kind !== "committed") return;
  assertEquals(await textOf(opened.frames), "-role|c-hello|c-world|e-late");
  assertEquals(summaries.map((s) => [s.end, s.error]), [["failed", "upstream said e-late"]]);
});

Deno.test("a committed stream whose upstream breaks ends with the failure frames and reports a failure", async () => {
  const { tally, steps, summaries } = setup();
  const opened = await openStream(fakeBody(["c-hi", new Error("connection reset")]), steps, tally, failure);
  if (opened.kind !== "committed") throw new Error(`not committed: ${opened.kind}`);
  assertEquals((await opened.frames.next())?.map((frame) => frame.data), ["c-hi"]);
  assertEquals((await opened.frames.next())?.map((frame) => frame.data), [
    "failed: upstream stream broke: connection reset",
  ]);
  assertEquals(await opened.frames.next(), null, "nothing after the error event");
  assertEquals(summaries.map((s) => [s.end, s.error]), [[
    "failed",
    "upstream stream broke: connection reset",
  ]]);
});

Deno.test("a client cancelling a committed stream cancels the upstream and reports a cancel", async () => {
  const { tally, steps, summaries } = setup();
  const body = fakeBody(["c-hi", "c-more", "c-even more"]);
  const opened = await openStream(body, steps, tally, failure);
  if (opened.kind !== "committed") throw new Error(`not committed: ${opened.kind}`);
  await opened.frames.next();
  opened.frames.cancel("client left");
  assert(body.cancelled);
  assertEquals(summaries.map((s) => s.end), ["cancelled"]);
});

Deno.test("a stream whose only content comes with the end is committed and reported once the client reads it", async () => {
  const { tally, summaries } = setup();
  const steps: StageSteps<Uint8Array, Frame> = {
    transform(chunk, out) {
      out.enqueue({ data: new TextDecoder().decode(chunk) });
    },
    flush(out) {
      tally.content();
      out.enqueue({ data: "c-last" });
    },
  };
  const opened = await openStream(fakeBody(["-role|"]), steps, tally, failure);
  if (opened.kind !== "committed") throw new Error(`not committed: ${opened.kind}`);
  assertEquals(summaries, [], "nothing is reported before the caller could wire the report up");
  assertEquals(await textOf(opened.frames), "-role|c-last");
  assertEquals(summaries.map((s) => s.end), ["completed"]);
});
