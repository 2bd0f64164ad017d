import { JUDGE_INSTRUCTION } from "../../src/routing/mod.ts";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { chatCompletion, post, usageRows } from "../helpers/chat_fixtures.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { type MockUpstream, type RecordedRequest, startMockUpstream } from "../helpers/mock_upstream.ts";
import { waitFor } from "../helpers/wait.ts";

const ask = { messages: [{ role: "user", content: "What is 2+2?" }] };

interface Behaviour {
  /** Never answers: the call ends only when the gateway cancels it (counted in `cancelled`). */
  hang?: boolean;
  fail?: number;
  text?: string;
}

interface Fusion {
  mock: MockUpstream;
  gw: TestGateway;
  panelCalls(): RecordedRequest[];
  judgeCalls(): RecordedRequest[];
  /** How many hanging panel calls the gateway cancelled. */
  cancelled(): number;
  [Symbol.asyncDispose](): Promise<void>;
}

function isJudge(request: RecordedRequest): boolean {
  return JSON.stringify(request.body.messages).includes(JUDGE_INSTRUCTION);
}

async function fusion(
  behaviour: Record<string, Behaviour>,
  settings: Record<string, string> = {},
): Promise<Fusion> {
  const mock = await startMockUpstream();
  const closing = new AbortController();
  let cancelled = 0;
  mock.script({
    handler: async (request, signal) => {
      const model = String(request.body.model);
      if (isJudge(request)) return Response.json(chatCompletion(`JUDGED by ${model}`));
      const b = behaviour[model] ?? {};
      if (b.hang) {
        await new Promise<void>((resolve) => {
          signal.addEventListener("abort", () => {
            cancelled++;
            resolve();
          }, { once: true });
          closing.signal.addEventListener("abort", () => resolve(), { once: true });
        });
        return new Response("too late", { status: 504 });
      }
      if (b.fail) return Response.json({ error: { message: "down" } }, { status: b.fail });
      return Response.json(chatCompletion(b.text ?? `answer from ${model}`));
    },
  });
  const providers = ["a", "b", "c"].map((p) =>
    `  - id: ${p}-1\n    prefix: ${p}\n    api_type: chat_compat\n    base_url: ${mock.url}/v1\n    models: [${p}m]\n`
  ).join("");
  const gw = await startTestGateway(
    `providers:\n${providers}combos:\n  - name: team\n    models: [a/am, b/bm, c/cm]\n`,
  );
  const store = gw.runtime.control.store;
  store.settings.set("combo_strategy", "fusion");
  for (const [k, v] of Object.entries(settings)) store.settings.set(k, v);
  gw.runtime.control.reload();
  return {
    mock,
    gw,
    panelCalls: () => mock.requests.filter((r) => !isJudge(r)),
    judgeCalls: () => mock.requests.filter(isJudge),
    cancelled: () => cancelled,
    async [Symbol.asyncDispose]() {
      closing.abort();
      await gw.stop();
      await mock.close();
    },
  };
}

Deno.test("fusion fans out to every member without tools or streaming, then the judge synthesises anonymously", async () => {
  await using t = await fusion({ am: { text: "Four." }, bm: { text: "It is 4." }, cm: { text: "2+2=4" } });
  const response = await post(`${t.gw.url}/v1/chat/completions`, {
    model: "team",
    ...ask,
    tools: [{ type: "function", function: { name: "calc", parameters: { type: "object" } } }],
  });
  assertEquals(response.status, 200);
  assertEquals((await response.json()).choices[0].message.content, "JUDGED by am");
  const panel = t.panelCalls();
  assertEquals(panel.map((r) => r.body.model).sort(), ["am", "bm", "cm"]);
  for (const call of panel) {
    assertEquals(call.body.tools, undefined);
    assert(call.body.stream !== true);
  }
  const [judge] = t.judgeCalls();
  const judgeText = JSON.stringify(judge.body.messages);
  for (const answer of ["Four.", "It is 4.", "2+2=4"]) assertStringIncludes(judgeText, answer);
  assertStringIncludes(judgeText, "[Source 1]");
  assertStringIncludes(judgeText, "[Source 3]");
  assert(!/\b(am|bm|cm|a-1|b-1|c-1)\b/.test(judgeText), "sources are anonymised");
  assertEquals((judge.body.tools as unknown[]).length, 1, "the judge keeps the client's tools");
  assertEquals((await usageRows(t.gw)).length, 4, "three panel rows and one judge row");
});

Deno.test("fusion keeps the client's stream flag for the judge", async () => {
  await using t = await fusion({});
  const response = await post(`${t.gw.url}/v1/chat/completions`, { model: "team", stream: true, ...ask });
  const text = await response.text();
  assertStringIncludes(text, "data: [DONE]");
  assertStringIncludes(text, "JUDGED");
  assertEquals(t.judgeCalls()[0].body.stream, true);
});

Deno.test("after the quorum a straggler gets the grace period, then is cancelled", async () => {
  // The straggler never answers: the request can only end if the gateway stops waiting for it.
  await using t = await fusion({ cm: { hang: true } }, {
    combo_fusion_min_panel: "2",
    combo_fusion_straggler_grace_s: "0.2",
  });
  const response = await post(`${t.gw.url}/v1/chat/completions`, { model: "team", ...ask });
  assertEquals(response.status, 200);
  await response.body?.cancel();
  await waitFor(() => t.cancelled() === 1, { what: "the straggler's call cancelled" });
  const judgeText = JSON.stringify(t.judgeCalls()[0].body.messages);
  assert(!judgeText.includes("answer from cm"));
  assert(!judgeText.includes("[Source 3]"));
});

Deno.test("the hard timeout bounds the whole panel", async () => {
  await using t = await fusion({ am: { hang: true }, bm: { hang: true }, cm: { text: "only me" } }, {
    combo_fusion_min_panel: "3",
    combo_fusion_hard_timeout_s: "0.3",
  });
  const response = await post(`${t.gw.url}/v1/chat/completions`, { model: "team", ...ask });
  assertEquals(
    (await response.json()).choices[0].message.content,
    "only me",
    "one answer is returned directly",
  );
  await waitFor(() => t.cancelled() === 2, { what: "the two unanswered panel calls cancelled" });
  assertEquals(t.judgeCalls().length, 0);
});

Deno.test("when every panel member fails the client gets 503", async () => {
  await using t = await fusion({ am: { fail: 500 }, bm: { fail: 500 }, cm: { fail: 500 } });
  const response = await post(`${t.gw.url}/v1/chat/completions`, { model: "team", ...ask });
  assertEquals(response.status, 503);
  assertStringIncludes((await response.json()).detail, "All providers exhausted");
});

Deno.test("the configured judge is used; an unroutable judge falls back to the first routable member", async () => {
  await using t = await fusion({}, { combo_fusion_judge: "b/bm" });
  await (await post(`${t.gw.url}/v1/chat/completions`, { model: "team", ...ask })).body?.cancel();
  assertEquals(t.judgeCalls()[0].body.model, "bm");
  t.gw.runtime.control.store.settings.set("combo_fusion_judge", "nowhere/x");
  t.gw.runtime.control.reload();
  const response = await post(`${t.gw.url}/v1/chat/completions`, { model: "team", ...ask });
  assertEquals((await response.json()).choices[0].message.content, "JUDGED by am");
});

Deno.test("a client disconnect cancels the panel calls", async () => {
  await using t = await fusion({ am: { hang: true }, bm: { hang: true }, cm: { hang: true } });
  const controller = new AbortController();
  const pending = fetch(`${t.gw.url}/v1/chat/completions`, {
    method: "POST",
    body: JSON.stringify({ model: "team", ...ask }),
    signal: controller.signal,
  }).catch(() => null);
  await waitFor(() => t.panelCalls().length === 3, { what: "the three panel calls started" });
  controller.abort();
  await pending;
  await waitFor(() => t.cancelled() === 3, { what: "the three panel calls cancelled" });
  assertEquals(t.judgeCalls().length, 0, "no judge after the client left");
});

Deno.test("a judge that fails after the panel answered is replaced by the first member that answered", async () => {
  const mock = await startMockUpstream();
  // cm answers first: the others answer only after cm's answer is out, and then later still (slow
  // members, not synchronisation), however the three calls were scheduled.
  let cmAnswered = () => {};
  const cmOut = new Promise<void>((resolve) => cmAnswered = resolve);
  mock.script({
    handler: async (request) => {
      const model = String(request.body.model);
      if (isJudge(request)) {
        return model === "bm"
          ? Response.json({ error: { message: "judge down" } }, { status: 500 })
          : Response.json(chatCompletion(`JUDGED by ${model}`));
      }
      if (model === "cm") {
        setTimeout(cmAnswered, 0);
      } else {
        await cmOut;
        await new Promise((r) => setTimeout(r, 200));
      }
      return Response.json(chatCompletion(`answer from ${model}`));
    },
  });
  const providers = ["a", "b", "c"].map((p) =>
    `  - id: ${p}-1\n    prefix: ${p}\n    api_type: chat_compat\n    base_url: ${mock.url}/v1\n    models: [${p}m]\n`
  ).join("");
  const gw = await startTestGateway(
    `providers:\n${providers}combos:\n  - name: team\n    models: [a/am, b/bm, c/cm]\n`,
  );
  try {
    const store = gw.runtime.control.store;
    store.settings.set("combo_strategy", "fusion");
    store.settings.set("combo_fusion_judge", "b/bm");
    gw.runtime.control.reload();
    const response = await post(`${gw.url}/v1/chat/completions`, { model: "team", ...ask });
    assertEquals((await response.json()).choices[0].message.content, "JUDGED by cm");
  } finally {
    await gw.stop();
    await mock.close();
  }
});
