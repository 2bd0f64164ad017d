/**
 * A big body's long strings travel from the parse worker to the serving thread in pieces and stay held
 * as those pieces (src/long_strings.ts): the value is the one JSON.parse gives, the pieces never split a
 * surrogate pair, and what encodes the value again (the upstream body, the request log) gives the same
 * bytes through the pieces as from the whole strings.
 */
import { assert, assertEquals, assertRejects } from "../helpers/assert.ts";
import { concatBytes } from "../../src/bytes.ts";
import { JsonParser } from "../../src/http/json_parser.ts";
import { readJsonRequest } from "../../src/http/read_body.ts";
import { slicedJsonBytes } from "../../src/gateway/sliced_json.ts";
import { logBodyText } from "../../src/gateway/request_log_observer.ts";
import { LOG_BODY_LIMIT, truncateUtf8 } from "../../src/gateway/truncate_utf8.ts";
import { cutIntoPieces, LONG_STRING_CHARS, LongStrings, PIECE_CHARS } from "../../src/long_strings.ts";
import { withStandIns } from "../../src/gateway/stand_ins.ts";
import { SNIFFED_BASE64_CHARS } from "../../src/wire/local_runner/mod.ts";

const utf8 = new TextEncoder();

/** Posts `body` to a JSON reader that parses big bodies on `parser`. */
function read(body: unknown, parser: JsonParser) {
  const bytes = utf8.encode(JSON.stringify(body));
  const request = new Request("http://127.0.0.1/v1/chat/completions", {
    method: "POST",
    headers: { "content-type": "application/json", "content-length": String(bytes.length) },
    body: bytes,
  });
  return readJsonRequest(request, undefined, { admit: () => Promise.resolve(), parser });
}

/** Every string in `value` at least `chars` long. */
function longStringsIn(value: unknown, chars = LONG_STRING_CHARS): string[] {
  if (typeof value === "string") return value.length >= chars ? [value] : [];
  if (typeof value !== "object" || value === null) return [];
  return Object.values(value).flatMap((item) => longStringsIn(item, chars));
}

Deno.test("a big body's long strings come back whole, held in pieces that never split a surrogate pair", async () => {
  const parser = new JsonParser();
  try {
    // A pair every three units, shifted so that one of them straddles a piece boundary.
    const emoji = "x\u{1F600}".repeat(Math.ceil(1.5 * PIECE_CHARS / 3)) + "y";
    const body = {
      model: "p/m1",
      messages: [
        { role: "system", content: "short" },
        { role: "user", content: [{ type: "text", text: "é".repeat(PIECE_CHARS * 2 + 17) }] },
        { role: "user", content: emoji },
      ],
      metadata: { note: "a".repeat(LONG_STRING_CHARS - 1), blob: '"\\\n'.repeat(LONG_STRING_CHARS / 2) },
    };
    const { value, longStrings } = await read(body, parser);
    assertEquals(value, body);
    assert(longStrings !== undefined, "the long strings are held");
    const long = longStringsIn(value);
    assertEquals(long.length, 3, "the three strings of LONG_STRING_CHARS or more");
    assertEquals(longStrings.size, 3);
    for (const text of long) {
      const pieces = longStrings.piecesOf(text);
      assert(pieces !== undefined, `held: a string of ${text.length}`);
      assertEquals(pieces.join(""), text);
      for (const piece of pieces) {
        assert(piece.length <= PIECE_CHARS + 1, `a piece of ${piece.length}`);
        assert(piece.isWellFormed(), "no piece ends or starts inside a surrogate pair");
      }
    }
    // The value encodes to the same bytes through the pieces as whole.
    const parts = await slicedJsonBytes(value, { longStrings });
    assertEquals(concatBytes(parts), utf8.encode(JSON.stringify(body)));
    // Each piece was taken once: the worker holds none of them any more.
    await assertRejects(() => parser.take(1), Error, "holds no more pieces");
  } finally {
    parser.close();
  }
});

Deno.test("a big body without long strings holds none, and says it is big", async () => {
  const parser = new JsonParser();
  try {
    const body = {
      model: "p/m1",
      messages: Array.from({ length: 3000 }, (_, i) => ({ role: "user", content: `m${i}` })),
    };
    const { value, longStrings } = await read({ ...body, pad: "p".repeat(1024 * 1024 - 1) }, parser);
    assertEquals((value as typeof body).messages.length, 3000);
    assertEquals(longStrings?.size, 0);
  } finally {
    parser.close();
  }
});

Deno.test("a big body of many messages comes back whole from the worker, its skeleton first and its subtrees in batches", async () => {
  const parser = new JsonParser();
  try {
    const words = (i: number) => `message ${i} é\u{1F600} `.repeat(40);
    const body = {
      model: "p/m1",
      messages: Array.from(
        { length: 6000 },
        (_, i) => ({ role: i % 2 ? "assistant" : "user", content: words(i) }),
      ),
      // A long string inside a subtree sent apart, and an array of medium strings (an embeddings input).
      tools: [{ type: "function", function: { name: "f", description: "d".repeat(LONG_STRING_CHARS + 3) } }],
      input: Array.from({ length: 3000 }, (_, i) => words(i)),
      short: ["kept", 1, null, true],
    };
    const bytes = utf8.encode(JSON.stringify(body));
    const answer = await parser.parse(bytes.slice());
    assert("value" in answer, "parsed");
    assert(answer.batches > 5, `${answer.batches} batches`);
    // The skeleton is small: the messages and inputs left out as null.
    assert(JSON.stringify(answer.value).length < 200_000, "the skeleton holds the subtrees");
    const { value, longStrings } = await parser.receive(answer);
    assertEquals(value, body);
    assertEquals(longStrings?.size, 1);
    await assertRejects(() => parser.take(answer.id), Error, "holds no more pieces");
  } finally {
    parser.close();
  }
});

Deno.test("the upstream body is encoded a held piece per turn, not in slices of its own", async () => {
  const text = "abcdefghij".repeat(3);
  const longStrings = new LongStrings();
  const pieces = ["abcdefghijab", "cdefghij", "abcdefghij"];
  longStrings.add(text, pieces);
  const value = { messages: [{ content: text }], other: "z".repeat(40) };
  const parts = await slicedJsonBytes(value, { longStrings, limit: 30, sliceChars: 1000 });
  assertEquals(concatBytes(parts), utf8.encode(JSON.stringify(value)));
  // The skeleton before, one part per piece, and the skeleton after (with the 40 z's cut as slices).
  const decoded = parts.map((part) => new TextDecoder().decode(part));
  assertEquals(decoded.slice(1, 4), pieces);
});

Deno.test("a held string is found by its content, and its head comes from its first piece", () => {
  const longStrings = new LongStrings();
  const text = "0123456789".repeat(4);
  longStrings.add(text, [text.slice(0, 25), text.slice(25)]);
  assertEquals(longStrings.piecesOf(text)?.length, 2);
  assertEquals(longStrings.piecesOf("x".repeat(40)), undefined, "another string of the same length");
  assertEquals(longStrings.piecesOf(text.slice(1)), undefined);
  assertEquals(longStrings.head(text, 7), "0123456");
  assertEquals(longStrings.head(text, 30), text.slice(0, 30), "a head longer than the first piece");
  assertEquals(longStrings.head("short", 7), "short");
});

Deno.test("the request log keeps the same bytes of a big body whether its long strings are read whole or by their heads", () => {
  const cases: unknown[] = [
    { model: "m", messages: [{ role: "user", content: "a".repeat(LOG_BODY_LIMIT * 3) }] },
    { messages: [{ content: "😀".repeat(LOG_BODY_LIMIT) }, { content: "é".repeat(LOG_BODY_LIMIT * 2) }] },
    { pad: "p".repeat(LOG_BODY_LIMIT - 10), later: '\n"'.repeat(LOG_BODY_LIMIT) },
    { short: "s", list: [1, 2, "x".repeat(LOG_BODY_LIMIT + 1)] },
  ];
  for (const body of cases) {
    const longStrings = new LongStrings();
    // Held as a first piece a little longer than the log keeps, and the rest.
    for (const text of longStringsIn(body, LOG_BODY_LIMIT + 1)) {
      longStrings.add(text, [text.slice(0, LOG_BODY_LIMIT + 5), text.slice(LOG_BODY_LIMIT + 5)]);
    }
    assert(longStrings.size > 0);
    const whole = truncateUtf8(logBodyText(body));
    const heads = truncateUtf8(logBodyText(body, longStrings));
    assertEquals(heads, whole);
    assert(whole.truncated, "every case is over the log's limit");
  }
});

Deno.test("a long data URL reaches the codecs as a stand-in, and the upstream body holds it whole again", async () => {
  const payload = "QUJD".repeat(600_000);
  const url = `data:image/png;base64,${payload}`;
  const text = "t".repeat(LONG_STRING_CHARS + 5);
  const longStrings = new LongStrings();
  longStrings.add(url, cutIntoPieces(url));
  longStrings.add(text, cutIntoPieces(text));
  const body = {
    messages: [{
      role: "user",
      content: [{ type: "text", text }, { type: "image_url", image_url: { url } }],
    }],
  };
  const replaced = withStandIns(body, longStrings) as typeof body;
  // The client's body is left as it was; the copy holds the URL's head and a short stand-in.
  assert(body.messages[0].content[1].image_url!.url === url);
  const standIn = replaced.messages[0].content[1].image_url!.url;
  assert(standIn.startsWith("data:image/png;base64,gateway-stand-in-") && standIn.length < 100, standIn);
  // A long text, and a long string outside a data URL field, are not stood in for.
  assert(replaced.messages[0].content[0] === body.messages[0].content[0]);
  assertEquals((withStandIns({ text: url }, longStrings) as { text: string }).text.length, url.length);
  // A bare payload is stood in for whole where a source says base64 or it is Gemini's inline data, not elsewhere.
  longStrings.add(payload, cutIntoPieces(payload));
  const bare = withStandIns({
    a: { type: "base64", data: payload },
    b: { inlineData: { data: payload } },
    c: { type: "text", data: payload },
  }, longStrings) as Record<string, { data?: string; inlineData?: { data: string } }>;
  assert(
    bare.a.data!.startsWith("gateway-stand-in-") && bare.b.inlineData!.data.startsWith("gateway-stand-in-"),
  );
  assert(bare.c.data === payload);
  // An Ollama `images` entry keeps the characters its type is read from, bare or as a data URL.
  const ollama = withStandIns({ images: [payload, url, "short"] }, longStrings) as { images: string[] };
  assert(
    ollama.images[0].startsWith(`${payload.slice(0, SNIFFED_BASE64_CHARS)}gateway-stand-in-`),
    ollama.images[0],
  );
  assert(ollama.images[1].startsWith("data:image/png;base64,gateway-stand-in-"), ollama.images[1]);
  assertEquals(ollama.images[2], "short");
  const restored = await slicedJsonBytes(ollama, { longStrings });
  assertEquals(
    new TextDecoder().decode(concatBytes(restored)),
    JSON.stringify({ images: [payload, url, "short"] }),
  );
  // As a codec would carry it: the payload alone, and the URL rebuilt around it.
  const [, carried] = standIn.split(";base64,");
  const upstream = { image: { data: carried }, url: `data:image/png;base64,${carried}`, note: "é\u{1F600}" };
  const bytes = await slicedJsonBytes(upstream, { longStrings });
  const joined = new TextDecoder().decode(concatBytes(bytes));
  assertEquals(joined, JSON.stringify({ image: { data: payload }, url, note: "é\u{1F600}" }));
});
