/**
 * The turn-token store: what an answer's tool calls carried comes back into replayed history, by call id
 * or (for clients that renumber calls) by name and arguments; memory stays within its budget, oldest out
 * first; a new store over the same database has the recent rows, and rows past their age are deleted.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { BatchedWriter } from "../../src/gateway/batched_writer.ts";
import { TurnTokenStore } from "../../src/gateway/turn_token_store.ts";
import type { NeutralRequest, Part } from "../../src/model/mod.ts";
import { openDatabase, SecretBox, Store } from "../../src/storage/mod.ts";

const DAY = 24 * 3600 * 1000;

function answer(n: number): Part[] {
  return [
    { kind: "reasoning", text: `thinking ${n}`, signature: `think-sig-${n}`, family: "anthropic" },
    {
      kind: "toolCall",
      id: `call_${n}`,
      name: "get_weather",
      arguments: `{"city":"C${n}"}`,
      signature: `call-sig-${n}`,
      family: "google",
    },
  ];
}

/** A replayed turn as a client without signatures sends it (its own id for the call, or the same). */
function replay(n: number, id = `call_${n}`): NeutralRequest {
  return {
    model: "m",
    system: [],
    messages: [
      { role: "user", parts: [{ kind: "text", text: "weather?" }] },
      {
        role: "assistant",
        parts: [
          { kind: "reasoning", text: `thinking ${n}` },
          { kind: "toolCall", id, name: "get_weather", arguments: `{ "city": "C${n}" }` },
        ],
      },
      { role: "tool", parts: [{ kind: "toolResult", callId: id, content: [{ kind: "text", text: "18" }] }] },
    ],
    tools: [],
    params: {},
    stream: false,
    source: "chat_completions",
  };
}

function restoredTokens(store: TurnTokenStore, request: NeutralRequest): string[] {
  return store.restore(request).messages[1].parts.flatMap((p) =>
    p.kind === "reasoning" || p.kind === "toolCall" ? [p.signature ?? "-"] : []
  );
}

Deno.test("TurnTokenStore puts back a call's signature and the turn's signed reasoning, by id or by name and arguments", () => {
  const store = new Store(openDatabase(":memory:"), new SecretBox(new Uint8Array(32)));
  const writer = new BatchedWriter(store);
  const tokens = new TurnTokenStore(store.turnTokens, writer, () => 1_000 * DAY);
  tokens.capture(answer(1));
  assertEquals(restoredTokens(tokens, replay(1)), ["think-sig-1", "call-sig-1"]);
  // An Ollama-style client renumbers the call and re-serialises its arguments.
  assertEquals(restoredTokens(tokens, replay(1, "call_0_local")), ["think-sig-1", "call-sig-1"]);
  // Unknown calls are left as they are (the same object when nothing was restored).
  const unknown = replay(2);
  assert(tokens.restore(unknown) === unknown);
  writer.close();
});

Deno.test("TurnTokenStore keeps memory within its budget (oldest out first) and a new store loads recent rows and prunes old ones", () => {
  const store = new Store(openDatabase(":memory:"), new SecretBox(new Uint8Array(32)));
  const writer = new BatchedWriter(store);
  let now = 1_000 * DAY;
  const small = new TurnTokenStore(store.turnTokens, writer, () => now, 2_000);
  for (let n = 0; n < 40; n++) small.capture(answer(n));
  assertEquals(restoredTokens(small, replay(0)), ["-", "-"], "the oldest turn was evicted");
  assertEquals(restoredTokens(small, replay(39)), ["think-sig-39", "call-sig-39"]);
  writer.flush();
  // After a restart every persisted row within the budget is back; rows past 30 days are deleted.
  now += 10 * DAY;
  const restarted = new TurnTokenStore(store.turnTokens, writer, () => now);
  assertEquals(restoredTokens(restarted, replay(0)), ["think-sig-0", "call-sig-0"]);
  now += 31 * DAY;
  const later = new TurnTokenStore(store.turnTokens, writer, () => now);
  assertEquals(restoredTokens(later, replay(39)), ["-", "-"]);
  writer.close();
});
