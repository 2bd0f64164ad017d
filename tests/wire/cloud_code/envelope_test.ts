import { assertEquals } from "../../helpers/assert.ts";
import {
  unwrapCloudCodeFrames,
  unwrapCloudCodeResponse,
  wrapCloudCodeRequest,
} from "../../../src/wire/cloud_code/mod.ts";
import type { Frame } from "../../../src/wire/framing/mod.ts";

Deno.test("wrapCloudCodeRequest() puts the body under request with the session id and moves a root thinkingConfig", () => {
  const wrapped = wrapCloudCodeRequest({
    contents: [{ role: "user", parts: [{ text: "hi" }] }],
    generationConfig: { maxOutputTokens: 10 },
    thinkingConfig: { thinkingBudget: 512 },
    reasoning_effort: "high",
    model: "ignored",
  }, { client: "gemini-cli", model: "gemini-2.5-pro", project: "proj-1", requestId: "r1", sessionId: "s1" });
  assertEquals(wrapped, {
    project: "proj-1",
    model: "gemini-2.5-pro",
    userAgent: "gemini-cli",
    requestId: "r1",
    request: {
      contents: [{ role: "user", parts: [{ text: "hi" }] }],
      generationConfig: { maxOutputTokens: 10, thinkingConfig: { thinkingBudget: 512 } },
      sessionId: "s1",
    },
  });
});

Deno.test("wrapCloudCodeRequest() for Antigravity token counting has requestType agent and no project", () => {
  const wrapped = wrapCloudCodeRequest({ contents: [] }, {
    client: "antigravity",
    model: "m",
    requestId: "agent-1",
  });
  assertEquals(wrapped, {
    model: "m",
    userAgent: "antigravity",
    requestType: "agent",
    requestId: "agent-1",
    request: { contents: [] },
  });
});

Deno.test("unwrapCloudCodeResponse() and unwrapCloudCodeFrames() remove the {response} wrapper from JSON and every SSE event", () => {
  const inner = { candidates: [{ content: { parts: [{ text: "x" }] } }] };
  assertEquals(unwrapCloudCodeResponse({ response: inner, traceId: "t" }), inner);
  assertEquals(unwrapCloudCodeResponse({ error: { code: 429 } }), { error: { code: 429 } });
  const frames: Frame[] = [];
  const steps = unwrapCloudCodeFrames().steps;
  for (const frame of [{ data: JSON.stringify({ response: inner, traceId: "t" }) }, { data: "[DONE]" }]) {
    steps.transform(frame, { enqueue: (f) => frames.push(f) });
  }
  assertEquals(frames, [{ data: JSON.stringify(inner) }, { data: "[DONE]" }]);
});
