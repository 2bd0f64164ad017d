/**
 * `gateway serve --workers 2`: a response stored by one worker is served by the other (issue 30: the
 * database is the truth), both by id and as the `previous_response_id` of the next turn. Each request is
 * held to one worker and the answer says which worker served it.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { join } from "node:path";
import { chatCompletion } from "../helpers/chat_fixtures.ts";
import { chatProvidersYaml, QUIET_KEY_CHECKS } from "../helpers/gateway.ts";
import { startMockUpstream } from "../helpers/mock_upstream.ts";
import { pinnedClients, startWorkers } from "../helpers/workers.ts";

const KEY = "static-admin-key-1234567890";
const HEADERS = { "content-type": "application/json", authorization: `Bearer ${KEY}` };

Deno.test("serve --workers 2: a response stored by one worker is read and continued by the other", async () => {
  const upstream = await startMockUpstream();
  upstream.script(
    { json: { ...chatCompletion("The code is 42."), id: "chatcmpl-first" } },
    { json: { ...chatCompletion("It was 42."), id: "chatcmpl-second" } },
  );
  const dir = await Deno.makeTempDir({ prefix: "gateway-workers-responses-" });
  await Deno.writeTextFile(
    join(dir, "config.yaml"),
    `api_keys:\n  - key: ${KEY}\n    client_key_label: admin\n` +
      chatProvidersYaml([{ id: "a", prefix: "p", url: upstream.url }]) + QUIET_KEY_CHECKS,
  );
  const gateway = await startWorkers(dir);
  assert(gateway.url, gateway.printed());
  const clients = await pinnedClients(gateway.url);
  try {
    const [first, second] = [...clients.values()];
    const created = await (await first.fetch("/v1/responses", {
      method: "POST",
      headers: HEADERS,
      body: JSON.stringify({ model: "p/m1", input: "Remember the code." }),
    })).json();
    const fetched = await second.fetch(`/v1/responses/${created.id}`, { headers: HEADERS });
    assertEquals(fetched.status, 200);
    assertEquals((await fetched.json()).output, created.output);

    const next = await second.fetch("/v1/responses", {
      method: "POST",
      headers: HEADERS,
      body: JSON.stringify({ model: "p/m1", previous_response_id: created.id, input: "What was it?" }),
    });
    assertEquals(next.status, 200);
    const messages = upstream.requests[1].body.messages as { role: string; content: unknown }[];
    assertEquals(messages.map((m) => m.role), ["user", "assistant", "user"]);
    assertEquals(messages[1].content, "The code is 42.");
  } finally {
    for (const client of clients.values()) client.close();
    await gateway.stop();
    await upstream.close();
    await Deno.remove(dir, { recursive: true });
  }
});
