/**
 * 401s happen before the request lifecycle; the request log still tells a missing key from an unknown one,
 * and a flood of them writes a bounded number of rows (the rest are counted into the next row).
 */
import { AUTH_ROWS_PER_MINUTE } from "../../src/gateway/auth_failure_log.ts";
import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { post } from "../helpers/chat_fixtures.ts";
import { chatProvidersYaml, startTestGateway } from "../helpers/gateway.ts";

const ask = { model: "p/m1", messages: [{ role: "user", content: "x" }] };

Deno.test("the request log says missing key or unknown key for a 401, and keeps at most 10 a minute per reason", async () => {
  let clock = 1_800_000_000_000;
  const gw = await startTestGateway(
    chatProvidersYaml(
      [{ id: "acct-a", prefix: "p", url: "http://127.0.0.1:9" }],
      "server:\n  require_api_key: true\n",
    ),
    { now: () => clock },
  );
  try {
    const missing = await post(`${gw.url}/v1/chat/completions`, ask);
    assertEquals([missing.status, await missing.json()], [401, { detail: "Invalid API key" }]);
    const unknown = await post(`${gw.url}/v1/messages`, ask, { "x-api-key": "sk-not-a-key" });
    assertEquals(unknown.status, 401);
    await unknown.body?.cancel();
    gw.runtime.writer.flush();
    const store = gw.runtime.control.store;
    const rows = store.requests.page({ statusClass: 4 }, 50).rows;
    assertEquals(rows.map((r) => [r.status, r.clientFormat, r.error.split(":")[0]]).sort(), [
      [401, "chat_completions", "missing key"],
      [401, "messages", "unknown key"],
    ]);

    for (let i = 0; i < AUTH_ROWS_PER_MINUTE + 15; i++) {
      await (await post(`${gw.url}/v1/chat/completions`, ask, { authorization: "Bearer wrong" })).body
        ?.cancel();
    }
    gw.runtime.writer.flush();
    const unknownRows = () =>
      store.requests.page({ statusClass: 4 }, 100).rows.filter((r) => r.error.startsWith("unknown"));
    assertEquals(
      unknownRows().length,
      AUTH_ROWS_PER_MINUTE,
      "one row was written before the flood, so 9 more, then counting",
    );
    clock += 61_000;
    await (await post(`${gw.url}/v1/chat/completions`, ask, { authorization: "Bearer wrong" })).body
      ?.cancel();
    gw.runtime.writer.flush();
    const [newest] = unknownRows();
    assertStringIncludes(newest.error, "and 16 more in the minute before, counted but not logged");
  } finally {
    await gw.stop();
  }
});
