/**
 * The response store redacts what it keeps, once: items a request got from stored state were redacted when
 * they were stored, and saving the next turn redacts only what is new (src/gateway/response_store.ts).
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { resolveSettings } from "../../src/config/runtime_settings.ts";
import { type Answer, jsonAnswer } from "../../src/gateway/answer.ts";
import { ResponseStore } from "../../src/gateway/response_store.ts";
import { openDatabase, StoredResponsesRepo } from "../../src/storage/mod.ts";

const IDENTITY = { kind: "anonymous" } as const;
const SETTINGS = resolveSettings(new Map(), false);

function completed(id: string, text: string): Answer {
  return jsonAnswer({
    id,
    object: "response",
    status: "completed",
    output: [{
      id: `msg_${id}`,
      type: "message",
      role: "assistant",
      content: [{ type: "output_text", text }],
    }],
  }, []);
}

Deno.test("saving a continued conversation redacts only its new items; the stored ones stay as they were kept", () => {
  const redacted: string[] = [];
  const store = new ResponseStore({
    repo: new StoredResponsesRepo(openDatabase(":memory:")),
    now: () => Date.UTC(2026, 10, 29),
    settings: () => SETTINGS,
    redact: (text) => {
      redacted.push(text);
      return text.replaceAll("SECRET", "[redacted]");
    },
  });
  const by = () => ({ accountId: "acct", format: "chat_completions" as const });
  const first = { model: "p/m1", input: "turn one SECRET" };
  store.keep(completed("resp_1", "answer one SECRET"), store.expand(first, IDENTITY).body, IDENTITY, by);
  assert(
    redacted.includes("turn one SECRET") && redacted.includes("answer one SECRET"),
    redacted.join(" | "),
  );
  redacted.length = 0;

  const second = { model: "p/m1", previous_response_id: "resp_1", input: "turn two SECRET" };
  const expanded = store.expand(second, IDENTITY).body;
  store.keep(completed("resp_2", "answer two"), expanded, IDENTITY, by);
  // Only the new input and the new answer went through redaction, not the first turn's items again.
  assertEquals(redacted.filter((text) => text.includes("one")), []);
  assert(redacted.includes("turn two SECRET"), redacted.join(" | "));
  // And what the second turn stored is the whole conversation, every part of it redacted.
  const third = store.expand({ model: "p/m1", previous_response_id: "resp_2", input: "three" }, IDENTITY);
  const text = JSON.stringify(third.body);
  for (
    const part of [
      "turn one [redacted]",
      "answer one [redacted]",
      "turn two [redacted]",
      "answer two",
      "three",
    ]
  ) {
    assert(text.includes(part), `${part} in ${text}`);
  }
  assert(!text.includes("SECRET"), text);
});
