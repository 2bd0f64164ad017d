import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { parseConfig, resolveHomePaths } from "../../src/config/mod.ts";
import { chatCompletion, post } from "../helpers/chat_fixtures.ts";
import { chatProvidersYaml, startTestGateway } from "../helpers/gateway.ts";
import { type HostileMode, startHostileUpstream } from "../helpers/hostile_upstream.ts";
import { startMockUpstream } from "../helpers/mock_upstream.ts";
import { waitFor } from "../helpers/wait.ts";

const MIB = 1024 * 1024;
const ask = { model: "p/m1", messages: [{ role: "user", content: "hi" }] };

/** A request that holds its connection slot until `signal` aborts it. */
function hold(url: string, signal: AbortSignal): Promise<unknown> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ask),
    signal,
  }).then((response) => response.body?.cancel(), () => null);
}

/** A gateway whose one account ("p") is a hostile upstream, with these `limits:` lines. */
async function hostileGateway(mode: HostileMode, limits: string) {
  const upstream = startHostileUpstream(mode);
  const gw = await startTestGateway(
    chatProvidersYaml([{ id: "acct-1", prefix: "p", url: upstream.url }], `limits:\n${limits}`),
  );
  return {
    upstream,
    gw,
    async [Symbol.asyncDispose]() {
      await gw.stop();
      await upstream.close();
    },
  };
}

/** The gateway process's resident memory, in bytes. */
function rss(): number {
  return Deno.memoryUsage().rss;
}

Deno.test("an answer over limits.max_answer_bytes is a 502 in the client's format; memory does not grow by the answer", async () => {
  await using t = await hostileGateway(
    { kind: "bigJson", bytes: 200 * MIB, chunked: true },
    "  max_answer_bytes: 4194304\n",
  );
  const { upstream, gw } = t;
  const before = rss();
  const response = await post(`${gw.url}/v1/chat/completions`, ask);
  const body = await response.json();
  const grown = rss() - before;
  assertEquals(response.status, 502);
  assertStringIncludes(body.error.message, "larger than 4194304 bytes (limits.max_answer_bytes)");
  // Reading stopped at the cap: a 200 MiB answer leaves the process within a few caps of where it was.
  assert(grown < 64 * MIB, `RSS grew by ${Math.round(grown / MIB)} MiB`);
  // The connection it came on is not reused: the next request opens another.
  upstream.mode({ kind: "ok", text: "small" });
  const next = await post(`${gw.url}/v1/chat/completions`, ask);
  assertEquals((await next.json()).choices[0].message.content, "small");
  assertEquals(upstream.connections(), 2);
});

Deno.test("an answer whose content-length is over the limit fails before a byte of it is read, in the messages format too", async () => {
  await using t = await hostileGateway(
    { kind: "bigJson", bytes: 200 * MIB },
    "  max_answer_bytes: 1048576\n",
  );
  const { gw } = t;
  const response = await post(`${gw.url}/v1/messages`, { ...ask, max_tokens: 10 });
  const body = await response.json();
  assertEquals(response.status, 502);
  assertEquals(body.type, "error");
  assertStringIncludes(body.error.message, "limits.max_answer_bytes");
});

Deno.test("a response head over limits.max_header_bytes is a connection failure named as such", async () => {
  await using t = await hostileGateway({ kind: "bigHead", bytes: 256 * 1024 }, "  max_header_bytes: 16384\n");
  const { gw } = t;
  const response = await post(`${gw.url}/v1/chat/completions`, ask);
  const body = await response.json();
  assertEquals(response.status, 503);
  assertStringIncludes(body.detail, "response head is larger than 16384 bytes (limits.max_header_bytes)");
});

Deno.test("endless keep-alive comments: the client gets an error status before any byte once the first-content deadline passes", async () => {
  await using t = await hostileGateway(
    { kind: "comments", everyMs: 50 },
    "  first_content_timeout_s: 0.5\n  idle_timeout_s: 60\n",
  );
  const { gw } = t;
  const response = await post(`${gw.url}/v1/chat/completions`, { ...ask, stream: true });
  const body = await response.json();
  assertEquals(response.status, 503);
  assertStringIncludes(
    body.detail,
    "no content within 0.5s of the request (limits.first_content_timeout_s",
  );
});

Deno.test("a stream that keeps dripping content is ended at limits.max_stream_duration_s after it started", async () => {
  await using t = await hostileGateway({ kind: "drip", everyMs: 20 }, "  max_stream_duration_s: 0.5\n");
  const { gw } = t;
  const response = await post(`${gw.url}/v1/chat/completions`, { ...ask, stream: true });
  assertEquals(response.status, 200);
  const text = await response.text();
  // Content flowed, then the gateway ended the endless stream with an error chunk instead of relaying it
  // forever or ending it as if complete.
  assertStringIncludes(text, "drip");
  const events = text.split("\n\n").filter((e) => e.startsWith("data: ")).map((e) => e.slice(6));
  assertEquals(events.at(-1), "[DONE]");
  assertStringIncludes(JSON.parse(events.at(-2)!).error.message, "max_stream_duration_s");
});

Deno.test("a full account's excess request waits at most limits.pool_wait_timeout_s, then goes to the next account; with none left, a clear 503", async () => {
  const busy = await startMockUpstream();
  busy.script({ hang: true });
  const spare = await startMockUpstream();
  spare.script({ json: chatCompletion("from the spare account") });
  const gw = await startTestGateway(
    chatProvidersYaml(
      [{ id: "acct-1", prefix: "p", url: busy.url }, { id: "acct-2", prefix: "p", url: spare.url }],
      "limits:\n  max_connections: 1\n  pool_wait_timeout_s: 0.3\n",
    ),
  );
  const holder = new AbortController();
  const url = `${gw.url}/v1/chat/completions`;
  const requested = (mock: typeof busy, count: number) =>
    waitFor(() => mock.requests.length >= count, { what: `${count} request(s) at the upstream` });
  try {
    // The first request takes acct-1's only slot and hangs there.
    const held = [hold(url, holder.signal)];
    await requested(busy, 1);
    const response = await post(url, ask);
    assertEquals(response.status, 200);
    assertEquals((await response.json()).choices[0].message.content, "from the spare account");
    // acct-1 is busy, not broken: it is not cooled down.
    assertEquals(gw.runtime.routing.active(Date.now()).filter((c) => c.accountId === "acct-1"), []);
    // Now acct-2's only slot hangs too: the next request finds no free connection anywhere.
    spare.script({ hang: true });
    held.push(hold(url, holder.signal));
    await requested(spare, 2);
    const refused = await post(url, ask);
    assertEquals(refused.status, 503);
    assertStringIncludes(
      (await refused.json()).detail,
      "all 1 connections to this account stayed busy for 0.3s",
    );
    holder.abort();
    await Promise.all(held);
  } finally {
    holder.abort();
    await gw.stop();
    await busy.close();
    await spare.close();
  }
});

Deno.test("a stream line longer than limits.max_stream_event_chars fails the attempt without holding the line", async () => {
  await using t = await hostileGateway(
    { kind: "longLine", bytes: 20 * MIB },
    "  max_stream_event_chars: 1048576\n",
  );
  const { gw } = t;
  const before = rss();
  const response = await post(`${gw.url}/v1/chat/completions`, { ...ask, stream: true });
  const body = await response.json();
  assertEquals(response.status, 503);
  assertStringIncludes(body.detail, "more than 1048576 characters in one event or line");
  assert(rss() - before < 64 * MIB, "the 20 MiB line was not kept");
});

Deno.test("limits: defaults are 64 MiB answers, 16 Mi-character events, 64 KiB heads, 120 s to first content, no stream limit, 100 connections waited for 30 s", () => {
  const config = parseConfig("", resolveHomePaths("/tmp/gateway-limits/config.yaml", {}), () => undefined);
  assertEquals(config.limits, {
    maxAnswerBytes: 64 * MIB,
    maxStreamEventChars: 16 * MIB,
    maxHeaderBytes: 64 * 1024,
    responseTimeoutMs: 300_000,
    idleTimeoutMs: 120_000,
    firstContentTimeoutMs: 120_000,
    maxStreamDurationMs: 0,
    maxConnections: 100,
    poolWaitTimeoutMs: 30_000,
  });
});
