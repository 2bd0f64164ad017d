/**
 * The response store redacts what it keeps, once: items a request got from stored state were redacted when
 * they were stored, and saving the next turn redacts only what is new (src/gateway/response_store.ts).
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { resolveSettings } from "../../src/config/runtime_settings.ts";
import { type Answer, jsonAnswer } from "../../src/gateway/answer.ts";
import { ResponseStore } from "../../src/gateway/response_store.ts";
import { openDatabase, StoredResponsesRepo } from "../../src/storage/mod.ts";
import { LongTextRedactor } from "../../src/gateway/long_text_redactor.ts";
import { JsonParser } from "../../src/http/json_parser.ts";
import { cutIntoPieces, LongStrings, PIECE_CHARS } from "../../src/long_strings.ts";
import { Redactor } from "../../src/security/redact.ts";

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

Deno.test("saving a continued conversation redacts only its new items; the stored ones stay as they were kept", async () => {
  const redacted: string[] = [];
  const store = new ResponseStore({
    repo: new StoredResponsesRepo(openDatabase(":memory:")),
    now: () => Date.UTC(2026, 10, 29),
    settings: () => SETTINGS,
    redact: (text) => {
      redacted.push(text);
      return text.replaceAll("SECRET", "[redacted]");
    },
    redactLong: () => Promise.reject(new Error("no long string here")),
    parseStored: () => Promise.reject(new Error("nothing stored in parts here")),
  });
  const by = () => ({ accountId: "acct", format: "chat_completions" as const });
  const first = { model: "p/m1", input: "turn one SECRET" };
  await store.keep(
    completed("resp_1", "answer one SECRET"),
    (await store.expand(first, IDENTITY)).body,
    IDENTITY,
    by,
  );
  assert(
    redacted.includes("turn one SECRET") && redacted.includes("answer one SECRET"),
    redacted.join(" | "),
  );
  redacted.length = 0;

  const second = { model: "p/m1", previous_response_id: "resp_1", input: "turn two SECRET" };
  const expanded = (await store.expand(second, IDENTITY)).body;
  await store.keep(completed("resp_2", "answer two"), expanded, IDENTITY, by);
  // Only the new input and the new answer went through redaction, not the first turn's items again.
  assertEquals(redacted.filter((text) => text.includes("one")), []);
  assert(redacted.includes("turn two SECRET"), redacted.join(" | "));
  // And what the second turn stored is the whole conversation, every part of it redacted.
  const third = await store.expand(
    { model: "p/m1", previous_response_id: "resp_2", input: "three" },
    IDENTITY,
  );
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

Deno.test("a big conversation is stored in parts: long strings redacted off the thread, images kept, read back in pieces", async () => {
  const redactor = new Redactor({ secrets: ["SECRET-VALUE-1234"] });
  const longRedactor = new LongTextRedactor();
  const parser = new JsonParser();
  const repo = new StoredResponsesRepo(openDatabase(":memory:"));
  let longRedactions = 0;
  const store = new ResponseStore({
    repo,
    now: () => Date.UTC(2026, 10, 29),
    settings: () => SETTINGS,
    redact: (text) => redactor.redact(text),
    redactLong: (pieces) => {
      longRedactions++;
      return longRedactor.redact(redactor.source, pieces);
    },
    parseStored: (parts) => parser.parseStored(parts),
  });
  try {
    // A pasted log of 3 Mi characters with the secret in it, once right across the first piece boundary
    // (2 Mi characters), and a base64 image holding a credential shape by chance.
    const filler = "log line 0123456789 ".repeat(PIECE_CHARS / 20);
    const log = `start SECRET-VALUE-1234 ${filler.slice(0, PIECE_CHARS - 30)}SECRET-VALUE-1234 ${filler}` +
      " end 😀";
    const image = `data:image/png;base64,${"QUFB".repeat(300_000)}AIzaSyA1234567890abcdefghijk${
      "QkJC".repeat(300_000)
    }==`;
    const longStrings = new LongStrings();
    longStrings.add(log, cutIntoPieces(log));
    const first = {
      model: "p/m1",
      input: [{
        type: "message",
        role: "user",
        content: [{ type: "input_text", text: log }, { type: "input_image", image_url: image }],
      }],
    };
    const by = () => ({ accountId: "acct", format: "chat_completions" as const });
    const expandedFirst = await store.expand(first, IDENTITY, longStrings);
    await store.keep(
      completed("resp_1", "seen"),
      expandedFirst.body,
      IDENTITY,
      by,
      expandedFirst.longStrings,
    );
    assertEquals(longRedactions, 1);
    const row = repo.get("anonymous", "resp_1", Date.UTC(2026, 10, 29));
    assert(
      row !== null && typeof row.inputItems !== "string" && row.inputItems.count > 1,
      JSON.stringify(row),
    );

    // The next turn gets the first one back: the log redacted as a whole string would be, the image as sent.
    const second = { model: "p/m1", previous_response_id: "resp_1", input: "next" };
    const expanded = await store.expand(second, IDENTITY);
    const items = (expanded.body as { input: { content?: { text?: string; image_url?: string }[] }[] }).input;
    const storedLog = items[0].content![0].text!;
    const storedImage = items[0].content![1].image_url!;
    assertEquals(storedLog.length, redactor.redact(log).length);
    assert(storedLog === redactor.redact(log) && !storedLog.includes("SECRET-VALUE"));
    assert(storedImage === image);
    // Both come with their pieces, so encoding them again for the upstream never makes them whole here.
    assert(expanded.longStrings?.piecesOf(storedLog) !== undefined);
    assert(expanded.longStrings?.piecesOf(storedImage) !== undefined);

    // Saving the second turn redacts nothing long again: those items were redacted when they were stored.
    await store.keep(completed("resp_2", "again"), expanded.body, IDENTITY, by, expanded.longStrings);
    assertEquals(longRedactions, 1);
    const page = await store.inputItems(IDENTITY, "resp_2", { limit: 10, order: "asc" }) as {
      data: { content?: { text?: string }[] }[];
    };
    assert(page.data[0].content![0].text === storedLog);

    // Deleting a response drops its parts with it.
    const stage =
      (repo.get("anonymous", "resp_2", Date.UTC(2026, 10, 29))!.inputItems as { stage: string }).stage;
    assert(repo.part(stage, 0) !== null);
    store.delete(IDENTITY, "resp_2");
    assertEquals(repo.part(stage, 0), null);
  } finally {
    longRedactor.close();
    parser.close();
  }
});
