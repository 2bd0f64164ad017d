import { assertEquals } from "../../helpers/assert.ts";
import {
  learnContentTemplate,
  matchContentTemplate,
} from "../../../src/wire/chat_completions/content_template.ts";
import { chatCompletionsPassthrough } from "../../../src/wire/chat_completions/mod.ts";
import type { PassthroughObserver } from "../../../src/wire/chat_completions/passthrough.ts";
import type { Frame } from "../../../src/wire/framing/mod.ts";
import { BODIES, ENVELOPE, ENVELOPES, random, TAIL } from "./chunk_envelopes.ts";

const plain = (body: string) => ENVELOPE + body + TAIL;

Deno.test("content template: learnt from a plain chunk, it matches the same envelope with other text", () => {
  const template = learnContentTemplate(plain("Hel"), "Hel");
  assertEquals(template, { prefix: ENVELOPE, suffix: TAIL });
  assertEquals(matchContentTemplate(template!, plain("lo, world")), "lo, world");
  // A template learnt from text with escaped quotes ends at the real closing quote.
  assertEquals(learnContentTemplate(plain('say \\"hi\\"'), 'say "hi"'), template);
  // Escapes are decoded as JSON decodes them.
  assertEquals(matchContentTemplate(template!, plain('a \\"quoted\\" \\\\ \\u00e9\\n')), 'a "quoted" \\ é\n');
});

Deno.test("content template: a body that is not exactly one JSON string is left to the full parse", () => {
  const template = learnContentTemplate(plain("Hel"), "Hel")!;
  for (
    const body of [
      "", // empty content is a chunk to drop, not text
      'a","tool_calls":[],"x":"b', // a quote ends the string early: another structure
      "a\\", // escapes the closing quote
      "\\q", // not a JSON escape
      "\\u12", // a short unicode escape
      "a\nb", // a raw control character
      "a\u2028b", // a line end for some SSE clients: the chunk is re-encoded
    ]
  ) {
    assertEquals(matchContentTemplate(template, plain(body)), null, JSON.stringify(body));
  }
  assertEquals(matchContentTemplate(template, plain("x").replace('"id"', '"ID"')), null);
  assertEquals(matchContentTemplate(template, plain("x") + " "), null);
});

Deno.test("content template: only a slot proven to be the delta's content is learnt", () => {
  // The first "content" key is not the delta's (a metadata field), so swapping it changes something else.
  const decoy = '{"meta":{"content":"hi"},"choices":[{"index":0,"delta":{"content":"hi"}}]}';
  assertEquals(learnContentTemplate(decoy, "hi"), null);
  // The delta's content written with an escape in its key: no slot found.
  assertEquals(learnContentTemplate('{"choices":[{"delta":{"\\u0063ontent":"hi"}}]}', "hi"), null);
  // Spaced separators (Python's default) are fine.
  assertEquals(learnContentTemplate('{"choices": [{"delta": {"content": "hi"}}]}', "hi"), {
    prefix: '{"choices": [{"delta": {"content": "',
    suffix: '"}}]}',
  });
  // A duplicate key: JSON keeps the last one, so the first slot is not it.
  assertEquals(learnContentTemplate('{"choices":[{"delta":{"content":"a","content":"hi"}}]}', "hi"), null);
  // The text as given does not match the chunk's content.
  assertEquals(learnContentTemplate(plain("Hel"), "Hello"), null);
});

type Call = [string, unknown];

function passthroughOf(frames: readonly Frame[]): { out: string[]; calls: Call[] } {
  const calls: Call[] = [];
  const observer: PassthroughObserver = {
    usage: (usage) => calls.push(["usage", usage]),
    finish: (finish) => calls.push(["finish", finish]),
    error: (message) => calls.push(["error", message]),
    content: () => calls.push(["content", null]),
    text: (text) => calls.push(["text", text]),
  };
  const steps = chatCompletionsPassthrough({ now: 5, fallbackId: "fb", observer }).steps;
  const out: string[] = [];
  const sink = { enqueue: (text: string) => out.push(text) };
  for (const frame of frames) steps.transform(frame, sink);
  steps.flush?.(sink);
  return { out, calls };
}

Deno.test("content template: the passthrough gives the same output and meter calls with and without it (2000 random streams)", () => {
  const next = random(7);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
  for (let i = 0; i < 2000; i++) {
    const data: string[] = [];
    const count = 1 + Math.floor(next() * 12);
    for (let c = 0; c < count; c++) {
      const roll = next();
      if (roll < 0.05) data.push("[DONE]");
      else if (roll < 0.08) data.push('{"error":{"message":"overloaded"}}');
      else if (roll < 0.1) data.push("<html>oops</html>");
      else {
        // Mostly the stream's usual envelope, so templates are learnt and then met by odd chunks.
        const envelope = next() < 0.6 ? ENVELOPES[0] : pick(ENVELOPES);
        data.push(envelope.prefix + pick(BODIES) + envelope.suffix);
      }
    }
    const withTemplate = passthroughOf(data.map((text) => ({ data: text })));
    // Leading whitespace is legal JSON, means the same, and differs per chunk: no template ever matches,
    // so every chunk takes the full parse.
    const parsedInFull = passthroughOf(data.map((text, index) => ({ data: " ".repeat(index + 1) + text })));
    const unpadded = parsedInFull.out.map((event) => event.replace(/^data: +/, "data: "));
    assertEquals(withTemplate.out, unpadded, `stream ${i}: ${JSON.stringify(data)}`);
    assertEquals(withTemplate.calls, parsedInFull.calls, `stream ${i}: ${JSON.stringify(data)}`);
  }
});
