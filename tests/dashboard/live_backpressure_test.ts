/**
 * A live stream whose client does not read is sent nothing more (src/dashboard/live_hub.ts and
 * live_routes.ts): the hub holds its events, bounded, and tells it how many were dropped once it reads
 * again; the route says "not ready" once LIVE_QUEUE_BYTES lie unread.
 */
import { LIVE_FLUSH_MS, LiveHub, type LiveTrace, MAX_BATCH } from "../../src/dashboard/live_hub.ts";
import { LIVE_QUEUE_BYTES, liveRoutes } from "../../src/dashboard/live_routes.ts";
import type { DashboardContext } from "../../src/dashboard/context.ts";
import { assert, assertEquals } from "../helpers/assert.ts";
import { waitFor } from "../helpers/wait.ts";

function trace(id: number): LiveTrace {
  return {
    id,
    input: {
      identity: { kind: "open" } as unknown as LiveTrace["input"]["identity"],
      surface: "chat_completions",
    },
    startedAt: 0,
    model: "p/m1",
    providerId: "acct",
    status: 200,
    streamed: false,
    error: "",
    latencyMs: 1,
  };
}

Deno.test("the live hub sends a stream that does not read nothing, keeps at most 2 × MAX_BATCH events for it, and counts the rest as dropped", async () => {
  const hub = new LiveHub(() => 0, () => "user");
  const sent: string[] = [];
  let ready = false;
  let asked = 0;
  const unsubscribe = hub.subscribe((text) => sent.push(text), () => {}, () => {
    asked++;
    return ready;
  });
  try {
    assertEquals(sent.length, 1); // the snapshot, at once
    for (let i = 0; i < 3 * MAX_BATCH; i++) hub.started(trace(i));
    // Two flushes asked and were told no: nothing more was sent.
    await waitFor(() => asked >= 2, { what: "two flushes", timeoutMs: 20 * LIVE_FLUSH_MS });
    assertEquals(sent.length, 1);
    ready = true;
    await waitFor(() => sent.some((text) => text.startsWith("event: request")), { what: "the next batch" });
    const batch = sent.find((text) => text.startsWith("event: request"))!;
    const data = JSON.parse(batch.slice(batch.indexOf("data: ") + 6)) as {
      events: { request_id: number }[];
      dropped: number;
    };
    assertEquals(data.events.length, MAX_BATCH);
    assertEquals(data.dropped, 2 * MAX_BATCH);
    // The newest are kept.
    assertEquals(data.events.at(-1)!.request_id, 3 * MAX_BATCH - 1);
  } finally {
    unsubscribe();
    hub.close();
  }
});

Deno.test("the live route is not ready once LIVE_QUEUE_BYTES lie unread, and ready again when the client reads", async () => {
  let send: (text: string) => void = () => {};
  let ready: () => boolean = () => true;
  const hub = {
    subscribe(s: (text: string) => void, _end: () => void, r: () => boolean) {
      send = s;
      ready = r;
      return () => {};
    },
  };
  const app = liveRoutes({ hub } as unknown as DashboardContext);
  const response = await app.request("/dashboard/api/live");
  const text = "x".repeat(16 * 1024);
  let sends = 0;
  while (ready()) {
    send(text);
    sends++;
    assert(sends <= LIVE_QUEUE_BYTES / text.length + 1, `still ready after ${sends} unread sends`);
  }
  assertEquals(sends, LIVE_QUEUE_BYTES / text.length);
  const reader = response.body!.getReader();
  let read = 0;
  while (!ready()) read += (await reader.read()).value!.length;
  assert(read > 0 && read <= text.length, `ready again after reading ${read} bytes`);
  await reader.cancel();
});
