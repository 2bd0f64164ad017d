/**
 * A big body that stops arriving is a 408 after the stall limit (src/http/read_body.ts): it holds the
 * big-body lane while it uploads, and every other big body waits behind it.
 */
import { assert, assertEquals, assertRejects } from "../helpers/assert.ts";
import { GatewayError } from "../../src/model/mod.ts";
import { type BigBodies, readJsonBody } from "../../src/http/read_body.ts";
import { BIG_BODY_BYTES } from "../../src/http/body_lane.ts";
import type { JsonParser } from "../../src/http/json_parser.ts";

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

const big = (stallMs: number): BigBodies => ({
  admit: () => Promise.resolve(),
  // Never reached: the body never ends.
  parser: {} as JsonParser,
  stallMs,
});

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
