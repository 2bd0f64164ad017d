import {
  ANTIGRAVITY_HOSTS,
  ANTIGRAVITY_SHAPER,
  CLOUD_CODE_BASE_URL,
  GEMINI_CLI_SHAPER,
} from "../../src/executors/cloud_code.ts";
import type { ShapeInput } from "../../src/executors/call_shape.ts";
import { assertEquals } from "../helpers/assert.ts";

function input(baseUrl: string): ShapeInput {
  let n = 0;
  return {
    baseUrl,
    accessToken: "ya29.test",
    extra: { project_id: "p-1" },
    body: { contents: [{ role: "user", parts: [{ text: "hi" }] }] },
    model: "gemini-3-pro",
    stream: true,
    newId: () => `id-${n++}`,
  };
}

Deno.test("Antigravity on its default base tries the daily hosts first and production last, one body for all", () => {
  const calls = ANTIGRAVITY_SHAPER.shape(input(CLOUD_CODE_BASE_URL));
  assertEquals(
    calls.map((c) => c.url),
    ANTIGRAVITY_HOSTS.map((h) => `${h}/v1internal:streamGenerateContent?alt=sse`),
  );
  assertEquals(ANTIGRAVITY_HOSTS.at(-1), CLOUD_CODE_BASE_URL);
  assertEquals(
    new Set(calls.map((c) => JSON.stringify(c.json))).size,
    1,
    "the same request id and envelope on every host",
  );
  assertEquals(calls[0].json.project, "p-1");
});

Deno.test("a configured base URL is the one host, for both identities; Gemini CLI never tries daily hosts", () => {
  for (const shaper of [ANTIGRAVITY_SHAPER, GEMINI_CLI_SHAPER]) {
    assertEquals(shaper.shape(input("http://127.0.0.1:9/proxy")).map((c) => c.url), [
      "http://127.0.0.1:9/proxy/v1internal:streamGenerateContent?alt=sse",
    ]);
  }
  assertEquals(GEMINI_CLI_SHAPER.shape(input(CLOUD_CODE_BASE_URL)).length, 1);
});

Deno.test("a 429 or a server error moves on to the next host; an auth refusal or a bad request does not", () => {
  assertEquals([429, 500, 503].map((s) => ANTIGRAVITY_SHAPER.failover(s)), [true, true, true]);
  assertEquals([400, 401, 403, 404].map((s) => ANTIGRAVITY_SHAPER.failover(s)), [false, false, false, false]);
});
