/** Shutdown with a stream that never ends: the drain deadline is honoured and no usage row is lost. */
import { assert, assertEquals } from "../helpers/assert.ts";
import { chatChunk } from "../helpers/chat_fixtures.ts";
import { chatProvidersYaml, openHomeStore, startTestGateway } from "../helpers/gateway.ts";
import { startMockUpstream } from "../helpers/mock_upstream.ts";

Deno.test("shutdown: past the drain deadline a never-ending stream is ended and its usage row is written", async () => {
  const mock = await startMockUpstream();
  const encoder = new TextEncoder();
  let upstreamCancelled = false;
  mock.script({
    handler: () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            const chunk = chatChunk({ role: "assistant", content: "first words" });
            controller.enqueue(encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`));
            // …and nothing more, ever.
          },
          cancel() {
            upstreamCancelled = true;
          },
        }),
        { headers: { "content-type": "text/event-stream" } },
      ),
  });
  const dir = Deno.makeTempDirSync({ prefix: "gateway-drain-" });
  const gw = await startTestGateway(
    chatProvidersYaml([{ id: "acct-a", prefix: "p", url: mock.url }], "server:\n  drain_timeout_s: 0.3\n"),
    { dir },
  );
  try {
    const response = await fetch(`${gw.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "p/m1", stream: true, messages: [{ role: "user", content: "hi" }] }),
    });
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    assert(first.includes("first words"), first);
    const clientEnded = (async () => {
      try {
        while (!(await reader.read()).done) { /* drain */ }
      } catch { /* a cut connection also ends it */ }
    })();
    await gw.stop();
    await clientEnded;
    assert(upstreamCancelled, "the upstream call was ended, not left open");
    const store = openHomeStore(dir);
    try {
      const rows = store.db.prepare("SELECT request_model, streamed, output_tokens FROM usage").all() as {
        request_model: string;
        streamed: number;
        output_tokens: number;
      }[];
      assertEquals(rows.length, 1, "the stream's usage row was written before the process stopped");
      assertEquals([rows[0].request_model, rows[0].streamed], ["p/m1", 1]);
    } finally {
      store.close();
    }
  } finally {
    await mock.close();
    Deno.removeSync(dir, { recursive: true });
  }
});
