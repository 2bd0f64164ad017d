import { normalizeCodexBody } from "../../src/executors/oauth/codex_body.ts";
import { normalizeCopilotChatBody } from "../../src/executors/oauth/copilot_body.ts";
import { collectResponsesSse } from "../../src/executors/oauth/responses_collect.ts";
import { assertEquals } from "../helpers/assert.ts";

Deno.test("normalizeCodexBody() turns a model effort suffix into reasoning.effort and drops what the backend rejects", () => {
  const { body, dropped } = normalizeCodexBody({
    model: "gpt-5-codex-high",
    input: [{ role: "system", content: "s" }, { role: "user", content: "u" }],
    temperature: 0.5,
    max_output_tokens: 10,
    stream: false,
  });
  assertEquals(body.model, "gpt-5-codex");
  assertEquals(body.reasoning, { effort: "high", summary: "auto" });
  assertEquals(body.include, ["reasoning.encrypted_content"]);
  assertEquals([body.stream, body.store], [true, false]);
  assertEquals((body.input as { role: string }[]).map((i) => i.role), ["developer", "user"]);
  assertEquals(dropped, ["temperature", "max_output_tokens"]);
  assertEquals(typeof body.instructions, "string");
  const none = normalizeCodexBody({ model: "gpt-5-none", input: "hi" }).body;
  assertEquals(none.include, undefined);
  assertEquals(none.input, [{ role: "user", content: "hi" }]);
});

Deno.test("normalizeCopilotChatBody() renames max_tokens for reasoning models and drops a 'none' effort", () => {
  assertEquals(normalizeCopilotChatBody({ model: "gpt-5-mini", max_tokens: 5, reasoning_effort: "none" }), {
    body: { model: "gpt-5-mini", max_completion_tokens: 5 },
    dropped: ["reasoning_effort"],
  });
  assertEquals(normalizeCopilotChatBody({ model: "gpt-4.1", max_tokens: 5 }).body, {
    model: "gpt-4.1",
    max_tokens: 5,
  });
});

Deno.test("collectResponsesSse() keeps the last completed response, or reports the stream's error", () => {
  const event = (v: unknown) => `data: ${JSON.stringify(v)}\n\n`;
  const done = collectResponsesSse(
    event({ type: "response.created", response: { id: "r", output: [] } }) +
      event({ type: "response.completed", response: { id: "r", output: [{ type: "message", id: "m" }] } }),
  );
  assertEquals(done, { kind: "response", body: { id: "r", output: [{ type: "message", id: "m" }] } });
  const failed = collectResponsesSse(
    event({ type: "response.created", response: { id: "r" } }) +
      event({
        type: "error",
        error: { type: "rate_limit_error", code: "rate_limit_exceeded", message: "slow down" },
      }),
  );
  assertEquals(failed.kind, "error");
  assertEquals(
    failed.kind === "error" ? failed.message : "",
    "rate_limit_error: rate_limit_exceeded: slow down",
  );
  assertEquals(collectResponsesSse("").kind, "error");
});
