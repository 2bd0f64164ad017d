import { assert, assertEquals } from "../helpers/assert.ts";
import { cacheAffinityKey } from "../../src/routing/mod.ts";
import type { NeutralRequest } from "../../src/model/mod.ts";

function request(
  fields: Partial<NeutralRequest> & { extraFields?: Record<string, unknown> },
): NeutralRequest {
  const { extraFields, ...rest } = fields;
  return {
    model: "p/m",
    system: [],
    messages: [{ role: "user", parts: [{ kind: "text", text: "hello" }] }],
    tools: [],
    params: {},
    stream: false,
    source: "chat_completions",
    ...(extraFields ? { extra: { format: "chat_completions", fields: extraFields } } : {}),
    ...rest,
  };
}

Deno.test("cacheAffinityKey() prefers an explicit prompt_cache_key", () => {
  assertEquals(cacheAffinityKey(request({ extraFields: { prompt_cache_key: "abc" } })), "key:abc");
  assertEquals(cacheAffinityKey(request({ extraFields: { prompt_cache_key: "" } })), null);
});

Deno.test("cacheAffinityKey() reads the session of Claude Code metadata.user_id in both forms", () => {
  const legacy = "user_0123abcd_account_1111-2222_session_5b2c7d1e-aaaa-bbbb-cccc-123456789abc";
  assertEquals(
    cacheAffinityKey(request({ extraFields: { metadata: { user_id: legacy } } })),
    "session:5b2c7d1e-aaaa-bbbb-cccc-123456789abc",
  );
  const json = JSON.stringify({ device_id: "d", account_uuid: "a", session_id: "s-123" });
  assertEquals(cacheAffinityKey(request({ extraFields: { metadata: { user_id: json } } })), "session:s-123");
  assertEquals(cacheAffinityKey(request({ extraFields: { metadata: { user_id: "plain-user" } } })), null);
});

Deno.test("cacheAffinityKey() hashes the cacheable prefix of marked or continuing conversations only", () => {
  assertEquals(cacheAffinityKey(request({})), null);
  const marked = request({
    system: [{ kind: "text", text: "You are helpful", cacheControl: { type: "ephemeral" } }],
  });
  const key = cacheAffinityKey(marked);
  assert(key !== null && /^prefix:[0-9a-f]{16}$/.test(key), String(key));
  const continued = (last: string) =>
    request({
      system: [{ kind: "text", text: "sys" }],
      messages: [
        { role: "user", parts: [{ kind: "text", text: "first" }] },
        { role: "assistant", parts: [{ kind: "text", text: "answer" }] },
        { role: "user", parts: [{ kind: "text", text: last }] },
      ],
    });
  // Later turns of one conversation share its key; another opening gets another key.
  assertEquals(cacheAffinityKey(continued("a")), cacheAffinityKey(continued("b")));
  const other = request({
    system: [{ kind: "text", text: "sys" }],
    messages: [
      { role: "user", parts: [{ kind: "text", text: "firsT" }] },
      { role: "assistant", parts: [{ kind: "text", text: "answer" }] },
      { role: "user", parts: [{ kind: "text", text: "a" }] },
    ],
  });
  assert(cacheAffinityKey(other) !== cacheAffinityKey(continued("a")));
});

Deno.test("cacheAffinityKey() reads a long first message through `head`, and hashes the same as reading it whole", () => {
  const long = "x".repeat(10_000) + "tail";
  const conversation = request({
    messages: [
      { role: "user", parts: [{ kind: "text", text: long }] },
      { role: "assistant", parts: [{ kind: "text", text: "ok" }] },
      { role: "user", parts: [{ kind: "text", text: "more" }] },
    ],
  });
  const asked: number[] = [];
  const key = cacheAffinityKey(conversation, (text, chars) => {
    asked.push(text.length);
    return text.slice(0, chars);
  });
  // Only the long text is asked for (the model's name fits the budget whole), and only its opening is hashed.
  assertEquals(asked, [long.length]);
  assertEquals(key, cacheAffinityKey(conversation));
});
