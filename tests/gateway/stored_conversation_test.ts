import { GatewayError } from "../../src/model/mod.ts";
import { Redactor } from "../../src/security/redact.ts";
import {
  expandStoredState,
  isBase64DataUrl,
  itemsPage,
  itemsQuery,
  redactItem,
  type StoredLookup,
  withItemIds,
} from "../../src/gateway/stored_conversation.ts";
import { assert, assertEquals, assertThrows } from "../helpers/assert.ts";
import { mulberry32 } from "../fuzz/fuzzer.ts";

const LOOKUP: StoredLookup = {
  turn: (id) =>
    id === "resp_1"
      ? {
        input: [{ id: "msg_in", type: "message", role: "user", content: "hi" }],
        output: [
          { id: "rs_1", type: "reasoning", summary: [], encrypted_content: "opaque" },
          { id: "rs_2", type: "reasoning", summary: [] },
          { id: "msg_1", type: "message", role: "assistant", status: "completed", content: [] },
        ],
      }
      : null,
  item: (id) =>
    id === "fc_1" ? { id: "fc_1", type: "function_call", status: "completed", call_id: "c1" } : null,
};

Deno.test("expandStoredState() puts the previous turn ahead of the new input, without the ids the upstream never saw", () => {
  const body = expandStoredState({ model: "m", previous_response_id: "resp_1", input: "next" }, LOOKUP);
  assertEquals(body, {
    model: "m",
    input: [
      { type: "message", role: "user", content: "hi" },
      { type: "reasoning", summary: [], encrypted_content: "opaque" },
      // Reasoning without encrypted content can only be found by id: it keeps it.
      { id: "rs_2", type: "reasoning", summary: [] },
      { type: "message", role: "assistant", content: [] },
      { type: "message", role: "user", content: [{ type: "input_text", text: "next" }] },
    ],
  });
});

Deno.test("expandStoredState() replaces item references and answers unknown ids with the API's errors", () => {
  const body = expandStoredState({
    input: [{ role: "user", content: "x" }, { type: "item_reference", id: "fc_1" }],
  }, LOOKUP);
  assertEquals(body.input, [{ role: "user", content: "x" }, { type: "function_call", call_id: "c1" }]);
  const missing = assertThrows(
    () => expandStoredState({ input: [{ type: "item_reference", id: "fc_9" }] }, LOOKUP),
    GatewayError,
  );
  assertEquals(missing.status, 400);
  assertEquals((missing.fixedBody as { error: { param: string } }).error.param, "input[0]");
  const previous = assertThrows(
    () => expandStoredState({ previous_response_id: "resp_9", input: [] }, LOOKUP),
    GatewayError,
  );
  assertEquals((previous.fixedBody as { error: { code: string } }).error.code, "previous_response_not_found");
});

Deno.test("withItemIds() keeps the client's ids and gives the others one per position", () => {
  assertEquals(
    withItemIds(
      [{ id: "mine", type: "message" }, { type: "function_call_output" }, { role: "user" }],
      "resp_abc",
    ),
    [
      { id: "mine", type: "message" },
      { id: "fco_abc_in1", type: "function_call_output" },
      { id: "msg_abc_in2", role: "user", type: "message" },
    ],
  );
});

Deno.test("itemsPage() pages newest first by default, after an id, with has_more", () => {
  const items = ["a", "b", "c"].map((id) => ({ id }));
  const query = (q: Record<string, string>) => itemsQuery((name) => q[name]);
  assertEquals(itemsPage(items, query({ limit: "2" })), {
    object: "list",
    data: [{ id: "c" }, { id: "b" }],
    first_id: "c",
    last_id: "b",
    has_more: true,
  });
  assertEquals(itemsPage(items, query({ order: "asc", after: "a" })).data, [{ id: "b" }, { id: "c" }]);
  assertEquals(itemsPage(items, query({ order: "asc", after: "c" })).has_more, false);
  assertThrows(() => query({ limit: "0" }), GatewayError, "limit");
  assertThrows(() => query({ order: "up" }), GatewayError, "order");
});

Deno.test("redactItem() redacts text but keeps encrypted content and ids byte for byte", () => {
  const redact = (text: string) => text.replaceAll("secret", "[redacted]");
  assertEquals(
    redactItem({ id: "secret-id", encrypted_content: "secret", content: [{ text: "a secret" }] }, redact),
    { id: "secret-id", encrypted_content: "secret", content: [{ text: "a [redacted]" }] },
  );
});

Deno.test("redactItem() keeps a base64 data URL byte for byte, even where its payload looks like a credential", () => {
  const redactor = new Redactor({ secrets: ["sk-provider-key-0123456789"] });
  const redact = (text: string) => redactor.redact(text);
  // Base64 that happens to spell a Google key's shape and `+key…` (both are redacted in text).
  const payload = "iVBORw0KGgo" + "AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStU" + "AAAA+keyAbCdEf0123456789xyZw" +
    "\r\nQUJD==";
  assert(redact(payload) !== payload, "the real redactor would change this payload");
  const image = `data:image/png;base64,${payload}`;
  const file = `data:application/pdf;name=report.pdf;base64,${payload}`;
  const item = {
    content: [
      { type: "input_image", image_url: image },
      { type: "input_file", file_data: file },
      { type: "input_text", text: "my key is sk-provider-key-0123456789" },
      // Not base64 after the comma: text, redacted like any other.
      { type: "input_text", text: "data:text/plain;base64,sk-provider-key-0123456789" },
    ],
  };
  const redacted = redactItem(item, redact);
  assertEquals(redacted.content[0].image_url, image);
  assertEquals(redacted.content[1].file_data, file);
  assertEquals(redacted.content[2].text, "my key is [redacted]");
  assertEquals(redacted.content[3].text, "data:text/plain;base64,[redacted]");
});

Deno.test("isBase64DataUrl() of a string's pieces agrees with redactItem's test of the whole string (seeded)", () => {
  const random = mulberry32(4711);
  const pick = (chars: string) => chars[Math.floor(random() * chars.length)];
  const heads = [
    "data:image/png;base64,",
    "data:image/png;charset=x;base64,",
    "data:image/png,",
    "data:;base64,",
    "",
  ];
  let kept = 0;
  for (let i = 0; i < 5000; i++) {
    const head = heads[Math.floor(random() * heads.length)];
    let body = "";
    const length = Math.floor(random() * 40);
    for (let j = 0; j < length; j++) body += pick(random() < 0.9 ? "AZaz09+/\n" : "=-; ");
    if (random() < 0.3) body += "=".repeat(Math.floor(random() * 4));
    const whole = head + body;
    // Pieces as the store has them: the first holds the data URL's head (real pieces are a million characters).
    const pieces: string[] = [];
    let at = Math.min(whole.length, head.length + Math.floor(random() * 5));
    pieces.push(whole.slice(0, at));
    while (at < whole.length) {
      const end = Math.min(whole.length, at + 1 + Math.floor(random() * 6));
      pieces.push(whole.slice(at, end));
      at = end;
    }
    const keptWhole = redactItem({ image_url: whole }, () => "[redacted]").image_url === whole;
    assertEquals(isBase64DataUrl(pieces), keptWhole, JSON.stringify(pieces));
    if (keptWhole) kept++;
  }
  // Both answers really came up.
  assert(kept > 200 && kept < 4800, `${kept} kept`);
});
