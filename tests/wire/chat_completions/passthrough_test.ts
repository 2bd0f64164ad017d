import { assert, assertEquals } from "../../helpers/assert.ts";
import type { Finish, Usage } from "../../../src/model/mod.ts";
import type { PassthroughOptions } from "../../../src/wire/chat_completions/mod.ts";
import { chatCompletionsPassthrough } from "../../../src/wire/chat_completions/mod.ts";
import type { Frame } from "../../../src/wire/framing/mod.ts";
import { frames, run } from "./stream_helpers.ts";
import { chunk } from "./transcripts.ts";

const NOW = 1_700_000_123;

async function pass(input: Frame[], options: Partial<PassthroughOptions> = {}): Promise<string[]> {
  return await run(input, chatCompletionsPassthrough({ now: NOW, fallbackId: "req42", ...options }));
}

/** The JSON chunks of an output (everything but [DONE]). */
function chunks(out: string[]): Record<string, unknown>[] {
  return out.filter((e) => e !== "data: [DONE]\n\n").map((e) => JSON.parse(e.slice("data: ".length)));
}

function recorder() {
  const seen = { usage: [] as Usage[], finish: [] as Finish[], error: [] as string[], content: 0 };
  return {
    seen,
    observer: {
      usage: (u: Usage) => seen.usage.push(u),
      finish: (f: Finish) => seen.finish.push(f),
      error: (m: string) => seen.error.push(m),
      content: () => seen.content++,
    },
  };
}

Deno.test("passthrough ends every event with a blank line and keeps unchanged chunks byte for byte", async () => {
  const raw = '{"id":"chatcmpl-abcdefgh", "object":"chat.completion.chunk","created":1,"model":"m",' +
    '"choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":null}]}';
  const out = await pass([{ data: raw }, ...frames(chunk({}, "stop")), { data: "[DONE]" }]);
  for (const event of out) assert(event.endsWith("\n\n"), `not blank-line terminated: ${event}`);
  assertEquals(out[0], `data: ${raw}\n\n`);
  assertEquals(out[1], `data: ${JSON.stringify(chunk({}, "stop"))}\n\n`);
  assertEquals(out.length, 3);
});

Deno.test("passthrough injects object and created when missing", async () => {
  const out = await pass(
    frames({ id: "chatcmpl-abcdefgh", model: "m", choices: [{ index: 0, delta: { content: "x" } }] }),
  );
  assertEquals(chunks(out)[0].object, "chat.completion.chunk");
  assertEquals(chunks(out)[0].created, NOW);
});

Deno.test("passthrough replaces missing, short and generic ids with one stable chatcmpl id", async () => {
  const out = await pass(frames(
    { ...chunk({ role: "assistant" }), id: "" },
    { ...chunk({ content: "a" }), id: "chatcmpl" },
    { ...chunk({ content: "b" }), id: "x1" },
    // Generic placeholders of 8 to 10 characters, in any case.
    { ...chunk({ content: "c" }), id: "Chatcmpl-" },
    { ...chunk({ content: "d" }), id: "undefined" },
    { ...chunk({ content: "e" }), id: "COMPLETION" },
    { ...chunk({}, "stop"), id: undefined },
  ));
  assertEquals(chunks(out).map((c) => c.id), Array(7).fill("chatcmpl-req42"));
});

Deno.test("passthrough strips *_filter_results at top level and per choice", async () => {
  const out = await pass(frames(
    { ...chunk({}), choices: [], prompt_filter_results: [{ prompt_index: 0 }] },
    {
      ...chunk({ content: "x" }),
      choices: [{
        index: 0,
        delta: { content: "x" },
        finish_reason: null,
        content_filter_results: { hate: {} },
      }],
    },
    chunk({}, "stop"),
  ));
  const all = chunks(out);
  // The Azure prompt-filter chunk carries nothing else, so it goes away entirely.
  assertEquals(all.length, 2);
  assertEquals(all[0].choices, [{ index: 0, delta: { content: "x" }, finish_reason: null }]);
  assert(!out.join("").includes("filter_results"));
});

Deno.test("passthrough drops empty delta.tool_calls arrays", async () => {
  const out = await pass(frames(chunk({ content: "x", tool_calls: [] }), chunk({}, "stop")));
  assertEquals((chunks(out)[0].choices as { delta: unknown }[])[0].delta, { content: "x" });
});

Deno.test("passthrough drops non-JSON data lines", async () => {
  const out = await pass(frames(
    chunk({ content: "x" }),
    "<html><body>502 Bad Gateway</body></html>",
    "rate limited, try later",
    chunk({}, "stop"),
    "[DONE]",
  ));
  assertEquals(out.length, 3);
  assert(!out.join("").includes("html"));
});

Deno.test("passthrough skips chunks with an empty delta and no finish, usage or role", async () => {
  const out = await pass(frames(
    chunk({ role: "assistant", content: "" }),
    chunk({}),
    chunk({ content: "" }),
    chunk({ content: null, tool_calls: [] }),
    chunk({ content: "x" }),
    chunk({}, "stop"),
  ));
  assertEquals(chunks(out).map((c) => (c.choices as { delta: unknown }[])[0].delta), [
    { role: "assistant", content: "" },
    { content: "x" },
    {},
  ]);
});

Deno.test("passthrough attaches known usage to a finish chunk that lacks it", async () => {
  const usage = { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 };
  const out = await pass(frames(
    { ...chunk({ content: "x" }), usage },
    chunk({}, "stop"),
  ));
  assertEquals(chunks(out)[1].usage, usage);
});

Deno.test("passthrough forwards usage that arrives after the finish chunk", async () => {
  const usage = { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 };
  const { seen, observer } = recorder();
  const out = await pass(
    frames(chunk({ content: "x" }), chunk({}, "stop"), { ...chunk({}), choices: [], usage }, "[DONE]"),
    { observer },
  );
  assertEquals(chunks(out).map((c) => c.usage), [null, null, usage]);
  assertEquals(seen.usage, [{ inputTotal: 9, cacheRead: 0, cacheWrite: 0, output: 3, reasoning: 0 }]);
  assertEquals(seen.finish, [{ unified: "stop", raw: "stop" }]);
});

Deno.test("passthrough synthesises finish_reason stop when the upstream never sent one", async () => {
  const { seen, observer } = recorder();
  const out = await pass(frames(chunk({ content: "x" }), "[DONE]"), { observer });
  const last = chunks(out).at(-1)!;
  assertEquals(last.choices, [{ index: 0, delta: {}, finish_reason: "stop" }]);
  assertEquals(last.id, "chatcmpl-xyz789");
  assertEquals(out.at(-1), "data: [DONE]\n\n");
  assertEquals(seen.finish, [{ unified: "stop", raw: null }]);
});

Deno.test("passthrough emits [DONE] when missing, once, and not at all when emitDone is false", async () => {
  const missing = await pass(frames(chunk({ content: "x" }, "stop")));
  assertEquals(missing.at(-1), "data: [DONE]\n\n");
  const twice = await pass(frames(chunk({ content: "x" }, "stop"), "[DONE]", "[DONE]"));
  assertEquals(twice.filter((e) => e === "data: [DONE]\n\n").length, 1);
  const off = await pass(frames(chunk({ content: "x" }, "stop"), "[DONE]"), { emitDone: false });
  assert(!off.join("").includes("[DONE]"));
});

Deno.test("passthrough reports content once and every usage and finish to the observer", async () => {
  const { seen, observer } = recorder();
  await pass(
    frames(
      chunk({ role: "assistant", content: "" }),
      chunk({ reasoning_content: "r" }),
      chunk({ content: "x" }),
      {
        ...chunk({}, "length"),
        usage: { prompt_tokens: 4, completion_tokens: 2, prompt_tokens_details: { cached_tokens: 1 } },
      },
    ),
    { observer },
  );
  assertEquals(seen.content, 1);
  assertEquals(seen.usage, [{ inputTotal: 4, cacheRead: 1, cacheWrite: 0, output: 2, reasoning: 0 }]);
  assertEquals(seen.finish, [{ unified: "length", raw: "length" }]);
  assertEquals(seen.error, []);
});

Deno.test("passthrough forwards an error inside a 200 stream, reports it and still ends with [DONE]", async () => {
  const { seen, observer } = recorder();
  const error = { error: { code: 429, message: "Resource exhausted", status: "RESOURCE_EXHAUSTED" } };
  const out = await pass(frames(chunk({ content: "Hel" }), error), { observer });
  assertEquals(out, [
    `data: ${JSON.stringify(chunk({ content: "Hel" }))}\n\n`,
    `data: ${JSON.stringify(error)}\n\n`,
    "data: [DONE]\n\n",
  ]);
  assertEquals(seen.error, ["Resource exhausted"]);
  assertEquals(seen.finish, []);
});

Deno.test("passthrough re-serialises a chunk spread over several data lines onto one line", async () => {
  const out = await pass([{
    data: '{"id":"chatcmpl-abcdefgh","object":"chat.completion.chunk","created":1,\n"model":"m",' +
      '"choices":[{"index":0,"delta":{"content":"x"},"finish_reason":"stop"}]}',
  }]);
  assertEquals(out[0].split("\n").length, 3);
});

Deno.test("passthrough names the model the client asked for in every chunk, templated content chunks included", async () => {
  const text = ["Hel", "lo ", 'a "quoted"', " world"];
  const out = await pass(
    frames(
      chunk({ role: "assistant", content: "" }),
      ...text.map((t) => chunk({ content: t })),
      chunk({}, "stop"),
    ),
    { model: "up/my-model" },
  );
  const parsed = chunks(out);
  assertEquals(parsed.map((c) => c.model), parsed.map(() => "up/my-model"));
  const content = parsed.map((c) => {
    const choice = (c.choices as { delta: { content?: string } }[])[0];
    return choice.delta.content ?? "";
  }).join("");
  assertEquals(content, text.join(""));
  // Without the option, the upstream's own name passes through unchanged.
  const plain = chunks(await pass(frames(chunk({ content: "a" }), chunk({ content: "b" }))));
  assertEquals(plain.map((c) => c.model), plain.map(() => chunk({}).model));
});

Deno.test("passthrough names the requested model in the finish it synthesises", async () => {
  const out = await pass(frames(chunk({ content: "a" })), { model: "combo-1" });
  assertEquals(chunks(out).map((c) => c.model), ["combo-1", "combo-1"]);
});
