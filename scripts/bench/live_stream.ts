/**
 * Does the dashboard's live usage stream keep up with 200 requests/s? Starts a gateway in-process with a
 * mock upstream, subscribes to /dashboard/api/live, sends 200 requests/s for 5 s, and reports how many
 * request events arrived and how late the last one came. Usage: deno run -A scripts/bench/live_stream.ts
 */
import { createKey } from "../../src/features/keys/service.ts";
import { startTestGateway } from "../../tests/helpers/gateway.ts";
import { chatCompletion } from "../../tests/helpers/chat_fixtures.ts";
import { startMockUpstream } from "../../tests/helpers/mock_upstream.ts";
import { sseFrames } from "../../src/wire/framing/mod.ts";

const RATE = 200;
const SECONDS = 5;
const mock = await startMockUpstream();
mock.script({ json: chatCompletion("ok") });
const gw = await startTestGateway(
  `providers:\n  - id: a\n    prefix: p\n    api_type: chat_compat\n    base_url: ${mock.url}/v1\n    models: [m1]\n`,
);
const key = createKey(
  gw.runtime.control.store,
  { name: "bench", canLogin: true, allowedModels: [] },
  Date.now(),
);
gw.runtime.control.reload();
const live = await fetch(`${gw.url}/dashboard/api/live`, {
  headers: { authorization: `Bearer ${key.plaintext}` },
});
let finished = 0;
let messages = 0;
let lastEventAt = 0;
const reading = (async () => {
  const frames = live.body!.pipeThrough(new TextDecoderStream()).pipeThrough(sseFrames());
  for await (const frame of frames) {
    messages++;
    if (frame.event !== "request") continue;
    const batch = JSON.parse(frame.data) as { events: { phase: string }[] };
    finished += batch.events.filter((e) => e.phase === "finish").length;
    lastEventAt = performance.now();
  }
})();
const body = JSON.stringify({ model: "p/m1", messages: [{ role: "user", content: "hi" }] });
const start = performance.now();
const pending: Promise<void>[] = [];
for (let i = 0; i < RATE * SECONDS; i++) {
  const wait = start + (i * 1000) / RATE - performance.now();
  if (wait > 1) await new Promise((r) => setTimeout(r, wait));
  pending.push(
    fetch(`${gw.url}/v1/chat/completions`, { method: "POST", body }).then((r) => r.body?.cancel()),
  );
}
await Promise.all(pending);
const sentAt = performance.now();
for (let i = 0; i < 50 && finished < RATE * SECONDS; i++) await new Promise((r) => setTimeout(r, 50));
console.log(
  `sent ${RATE * SECONDS} requests in ${((sentAt - start) / 1000).toFixed(1)} s (${RATE}/s target)`,
);
console.log(
  `live stream: ${finished} finish events in ${messages} SSE messages; last arrived ${
    Math.max(0, lastEventAt - sentAt).toFixed(0)
  } ms after the last response`,
);
await live.body?.cancel().catch(() => {});
await reading.catch(() => {});
await gw.stop();
await mock.close();
