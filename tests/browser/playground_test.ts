/**
 * The Playground: asks a loopback mock provider through the real data plane as the signed-in identity,
 * shows the streamed answer, tokens, cost and the serving account; replays a request-log row; and a
 * viewer whose key may not use a model gets the data plane's 403 there too.
 */
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { type RecordedRequest, sse } from "../helpers/mock_upstream.ts";
import { createKey } from "../../src/features/keys/service.ts";
import { type Dashboard, openDashboard, skipReason } from "./harness.ts";
import { chatChunk, chatCompletion } from "../helpers/chat_fixtures.ts";

const ignore = skipReason();
if (ignore) console.warn(ignore);
const options = { ignore: ignore !== "", sanitizeOps: false, sanitizeResources: false };

/** A streamed chat answer in three pieces, with its usage in the last chunk. */
function streamedAnswer() {
  return {
    chunks: sse(
      chatChunk({ role: "assistant", content: "Hello" }),
      chatChunk({ content: " from" }),
      chatChunk({ content: " the playground" }, "stop", {
        usage: { prompt_tokens: 1000, completion_tokens: 500, total_tokens: 1500 },
      }),
      "[DONE]",
    ),
  };
}

/** Prices p/m1 so the answer has a cost to show: 1,000 in and 500 out at $1 / $2 per Mtok = $0.002. */
async function priceModel(d: Dashboard): Promise<void> {
  const response = await fetch(`${d.gw.url}/dashboard/api/pricing`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${d.key}` },
    body: JSON.stringify({ model: "p/m1", input_per_mtok: 1, output_per_mtok: 2 }),
  });
  assertEquals(response.status, 200, await response.text());
}

/** Fills the model and message and presses Send. */
async function ask(d: Dashboard, model: string, message: string): Promise<void> {
  const screen = d.page.locator("gw-playground-screen");
  await screen.locator("input[name=model]").fill(model);
  await screen.locator("textarea[name=message]").fill(message);
  await screen.locator("[data-testid=pg-send]").click();
}

Deno.test({
  ...options,
  name: "playground: a streamed answer with tokens, cost and account; a logged request opened and replayed",
  fn: async () => {
    await using d = await openDashboard();
    await priceModel(d);
    d.gw.management.settings.apply({ server_request_logging: "true", server_require_api_key: "true" });
    d.mock.script(streamedAnswer());
    await d.signIn("/dashboard/ui/playground");
    const screen = d.page.locator("gw-playground-screen");
    await ask(d, "p/m1", "What is a playground?");

    const answer = screen.locator("[data-testid=pg-answer]");
    await screen.locator("[data-testid=pg-status]", { hasText: "HTTP 200" }).waitFor();
    await screen.locator("[data-testid=pg-answer]", { hasText: "Hello from the playground" }).waitFor();
    assertEquals(await answer.innerText(), "Hello from the playground");
    assertEquals(await screen.locator("[data-testid=pg-tokens]").innerText(), "1,000 / 500");
    await screen.locator("[data-testid=pg-account]", { hasText: "acct-a" }).waitFor();
    assertStringIncludes(await screen.locator("[data-testid=pg-cost]").innerText(), "0.002");
    assertStringIncludes(await screen.locator("[data-testid=pg-raw-response]").innerText(), "data:");
    const sent = d.mock.requests[0].body as { messages: { content: string }[] };
    assertEquals(sent.messages.at(-1)?.content, "What is a playground?");

    // Open that request from the request log and replay it.
    await d.page.goto(`${d.gw.url}/dashboard/ui/request-logs`);
    await d.page.locator("gw-request-logs-screen [data-testid=logs] tbody tr").first().click();
    await d.page.locator("gw-request-logs-screen [data-testid=log-open-playground]").click();
    await d.page.waitForURL((url) => url.pathname === "/dashboard/ui/playground");
    const request = screen.locator("textarea[name=request]");
    await d.page.waitForFunction(
      () => {
        const screen = document.querySelector("gw-app")?.shadowRoot?.querySelector("gw-playground-screen");
        const area = screen?.shadowRoot?.querySelector<HTMLTextAreaElement>("textarea[name=request]");
        return area?.value.includes("What is a playground?") ?? false;
      },
    );
    assertStringIncludes(await request.inputValue(), "What is a playground?");
    d.mock.script(streamedAnswer());
    await screen.locator("[data-testid=pg-send]").click();
    await screen.locator("[data-testid=pg-answer]", { hasText: "Hello from the playground" }).waitFor();
    assertEquals(d.mock.requests.length, 2, "the replay reached the upstream");
    const replayed = d.mock.requests[1].body as { messages: { content: string }[] };
    assertEquals(replayed.messages.at(-1)?.content, "What is a playground?");

    // Analytics shows the time to first token of those two answers beside their latency.
    d.gw.runtime.writer.flush();
    await d.page.goto(`${d.gw.url}/dashboard/ui/analytics?days=1`);
    const row = d.page.locator("gw-analytics-screen [data-testid=latency-model] tr[data-key='p/m1']");
    await row.waitFor();
    assertEquals((await row.locator("td").nth(1).innerText()).trim(), "2");
    const ttft = (await row.locator("[data-testid=ttft-p50]").innerText()).trim();
    assert(/\d/.test(ttft), `a TTFT p50 is shown: ${ttft}`);
    assertEquals(d.consoleErrors, []);
  },
});

Deno.test({
  ...options,
  name: "playground: a viewer whose key may not use a model gets the data plane's 403 (no side door)",
  fn: async () => {
    await using d = await openDashboard();
    d.gw.management.settings.apply({ server_require_api_key: "true" });
    const viewer = createKey(d.gw.runtime.control.store, {
      name: "browser-viewer",
      canLogin: true,
      allowedModels: ["p/m2"],
    }, Date.now());
    d.gw.runtime.control.reload();
    const page = d.page;
    await page.goto(`${d.gw.url}/dashboard/login?next=${encodeURIComponent("/dashboard/ui/playground")}`);
    await page.locator("input[name=api_key], input[type=password]").first().fill(viewer.plaintext);
    await Promise.all([
      page.waitForURL((url) => url.pathname.startsWith("/dashboard/ui")),
      page.locator("form button").first().click(),
    ]);
    await page.locator("gw-app [data-read-only]").waitFor();
    await ask(d, "p/m1", "Not for me");
    const screen = page.locator("gw-playground-screen");
    await screen.locator("[data-testid=pg-status]", { hasText: "HTTP 403" }).waitFor();
    await screen.locator("[data-testid=pg-error]").waitFor();
    assertEquals(d.mock.requests.length, 0, "nothing reached the upstream");
  },
});

/**
 * The mock's answer by prompt: the Playground's question gets 1,000 / 500 tokens ($0.002 at p/m1's price),
 * every other request 7 / 3 ($0.000013), so a cost shown for the wrong row is told apart. The Playground's
 * answer waits until three other requests were answered after it arrived: their rows are newer than its own.
 */
function answerByPrompt(): (request: RecordedRequest) => Promise<Response> {
  let othersServed = 0;
  const waiting: { until: number; go: () => void }[] = [];
  return async (request) => {
    const messages = request.body.messages as { content: string }[];
    if (messages.at(-1)?.content !== "Mine, please") {
      othersServed++;
      for (const w of waiting.filter((w) => othersServed >= w.until)) w.go();
      return Response.json(chatCompletion("busy", { prompt_tokens: 7, completion_tokens: 3 }));
    }
    await new Promise<void>((go) => waiting.push({ until: othersServed + 3, go }));
    const body = streamedAnswer().chunks.join("");
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  };
}

Deno.test({
  ...options,
  name: "playground: shows its own request's cost and account by x-gateway-request-id while others run",
  fn: async () => {
    await using d = await openDashboard();
    await priceModel(d);
    d.gw.management.settings.apply({ server_require_api_key: "true" });
    d.mock.script({ handler: answerByPrompt() });
    await d.signIn("/dashboard/ui/playground");
    // Other clients' requests to the same model in the same format keep landing in the log before and
    // after the Playground's own: only its uid says which row is its.
    let busy = true;
    const others = [0, 1].map(async (lane) => {
      for (let i = 0; busy; i++) {
        const response = await fetch(`${d.gw.url}/v1/chat/completions`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${d.key}` },
          body: JSON.stringify({
            model: "p/m1",
            messages: [{ role: "user", content: `other ${lane}-${i}` }],
          }),
        });
        assertEquals(response.status, 200, await response.text());
        d.gw.runtime.writer.flush();
      }
    });
    const own = d.page.waitForResponse((r) => r.url().endsWith("/v1/chat/completions"));
    await ask(d, "p/m1", "Mine, please");
    const uid = (await own).headers()["x-gateway-request-id"];
    assert(uid !== undefined && uid !== "", "the answer names its request");
    const screen = d.page.locator("gw-playground-screen");
    await screen.locator("[data-testid=pg-account]", { hasText: "acct-a" }).waitFor();
    busy = false;
    await Promise.all(others);
    assertEquals(await screen.locator("[data-testid=pg-tokens]").innerText(), "1,000 / 500");
    assertStringIncludes(await screen.locator("[data-testid=pg-cost]").innerText(), "0.002");
    const row = d.gw.runtime.control.store.requests.byUid(uid);
    assertEquals([row?.inputTokens, row?.outputTokens, row?.accountId], [1000, 500, "acct-a"]);
    assert(d.mock.requests.length > 3, `other requests ran meanwhile (${d.mock.requests.length})`);
    assertEquals(d.consoleErrors, []);
  },
});
