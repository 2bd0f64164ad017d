/**
 * A big body that stops arriving, or trickles in slower than the minimum pace, is a 408
 * (src/http/read_body.ts): it holds the big-body lane while it uploads, and every other big body waits
 * behind it.
 */
import { assert, assertEquals, assertMatch, assertRejects } from "../helpers/assert.ts";
import { GatewayError } from "../../src/model/mod.ts";
import { type BigBodies, readJsonBody } from "../../src/http/read_body.ts";
import { BIG_BODY_BYTES } from "../../src/http/body_lane.ts";
import { JsonParser } from "../../src/http/json_parser.ts";

/** A body that sends `bytes` of a JSON prefix and then nothing more, never ending; `cancelled` says if it was let go. */
function stalledBody(bytes: number) {
  const state = { cancelled: false };
  const prefix = new TextEncoder().encode(
    `{"model":"p/m1","messages":[{"role":"user","content":"${"a".repeat(bytes)}`,
  );
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let at = 0; at < prefix.length; at += 64 * 1024) {
        controller.enqueue(prefix.subarray(at, at + 64 * 1024));
      }
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { body, state };
}

const big = (stallMs: number, minBytesPerSecond?: number, parser = {} as JsonParser): BigBodies => ({
  admit: () => Promise.resolve(),
  // A stub where the body never ends (never reached).
  parser,
  stallMs,
  ...(minBytesPerSecond === undefined ? {} : { minBytesPerSecond }),
});

/**
 * A JSON body whose first `fast` bytes come at once and whose rest trickles in, `step` bytes every
 * `everyMs`, until `trickle` bytes have come (then it ends). `cancelled` says whether it was let go.
 */
function tricklingBody(fast: number, trickle: number, step: number, everyMs: number) {
  const state = { cancelled: false, sent: 0 };
  const text = JSON.stringify({
    model: "p/m1",
    messages: [{ role: "user", content: "a".repeat(fast + trickle) }],
  });
  const bytes = new TextEncoder().encode(text);
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (state.sent > 0) await new Promise((resolve) => setTimeout(resolve, everyMs));
      if (state.cancelled) return;
      const size = state.sent === 0 ? fast : step;
      controller.enqueue(bytes.slice(state.sent, state.sent + size));
      state.sent += size;
      if (state.sent >= bytes.length) controller.close();
    },
    cancel() {
      state.cancelled = true;
    },
  }, { highWaterMark: 0 });
  return { body, state, length: bytes.length };
}

Deno.test("a big body of declared length that stops arriving is a 408 naming the stall, and the upload is let go", async () => {
  const { body, state } = stalledBody(2 * BIG_BODY_BYTES);
  const request = new Request("http://127.0.0.1/v1/chat/completions", {
    method: "POST",
    body,
    headers: { "content-length": String(4 * BIG_BODY_BYTES) },
  });
  assertEquals(request.headers.get("content-length"), String(4 * BIG_BODY_BYTES));
  const error = await assertRejects(() => readJsonBody(request, 32 * BIG_BODY_BYTES, big(50)), GatewayError);
  assertEquals([error.status, error.kind], [408, "timeout"]);
  assertEquals(error.message, "Request body stalled: no bytes arrived for 0.05 s");
  assert(state.cancelled, "the stalled upload is cancelled");
});

Deno.test("a body without a length is timed once it has grown past BIG_BODY_BYTES (into the lane)", async () => {
  const { body, state } = stalledBody(2 * BIG_BODY_BYTES);
  const request = new Request("http://127.0.0.1/v1/chat/completions", { method: "POST", body });
  assertEquals(request.headers.get("content-length"), null);
  const error = await assertRejects(() => readJsonBody(request, 32 * BIG_BODY_BYTES, big(50)), GatewayError);
  assertEquals(error.status, 408);
  assert(state.cancelled, "the stalled upload is cancelled");
});

Deno.test("a big body that keeps trickling in below the minimum pace is a 408 naming the pace, and the upload is let go", async () => {
  // 1 KiB every 10 ms (at most 100 KiB/s) never stalls for 1 s, but falls behind 8 MiB/s once the 1 s
  // grace and the 0.25 s the first 2 MiB earned are spent.
  for (const declared of [true, false]) {
    const { body, state, length } = tricklingBody(2 * BIG_BODY_BYTES, 4 * BIG_BODY_BYTES, 1024, 10);
    const request = new Request("http://127.0.0.1/v1/chat/completions", {
      method: "POST",
      body,
      headers: declared ? { "content-length": String(length) } : {},
    });
    const error = await assertRejects(
      () => readJsonBody(request, 32 * BIG_BODY_BYTES, big(1000, 8 * 1024 * 1024)),
      GatewayError,
    );
    assertEquals([error.status, error.kind], [408, "timeout"]);
    assertMatch(
      error.message,
      /^Request body too slow: \d+\.\d MiB arrived in \d+ s; a body over 1 MiB must arrive at 8192 KiB\/s or faster$/,
    );
    assert(state.cancelled, "the slow upload is cancelled");
    assert(state.sent < length, "the body was cut before its end");
  }
});

Deno.test("a big body whose slow tail keeps to the minimum pace on average is read to its end", async () => {
  // 4 MiB at once earn 4 s at 1 MiB/s; the tail of 40 KiB at 1 KiB every 5 ms takes about 0.2-0.4 s.
  const parser = new JsonParser();
  try {
    const { body, length } = tricklingBody(4 * BIG_BODY_BYTES, 40 * 1024, 1024, 5);
    const request = new Request("http://127.0.0.1/v1/chat/completions", {
      method: "POST",
      body,
      headers: { "content-length": String(length) },
    });
    const parsed = await readJsonBody(request, 32 * BIG_BODY_BYTES, big(200, 1024 * 1024, parser)) as {
      messages: { content: string }[];
    };
    assertEquals(parsed.messages[0].content.length, 4 * BIG_BODY_BYTES + 40 * 1024);
  } finally {
    parser.close();
  }
});
