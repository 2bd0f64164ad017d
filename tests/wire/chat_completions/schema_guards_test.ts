/**
 * The hot-path guards must never be looser than their zod schemas: whatever a guard accepts, zod must
 * accept too and hand back unchanged (the decoder then uses the input itself). Checked on a corpus of
 * valid bodies and thousands of deterministic mutations of them (wrong types, missing and extra keys,
 * odd numbers, odd prototypes), so a schema change that a guard does not follow fails here.
 */
import { assert, assertEquals } from "../../helpers/assert.ts";
import type { z } from "zod";
import {
  assistantMessageSchema,
  imagePartSchema,
  requestSchema,
  systemMessageSchema,
  textPartSchema,
  toolMessageSchema,
  userMessageSchema,
} from "../../../src/wire/chat_completions/schema.ts";
import {
  isPlainAssistantMessage,
  isPlainImagePart,
  isPlainRequest,
  isPlainSystemMessage,
  isPlainTextPart,
  isPlainToolMessage,
  isPlainUserMessage,
} from "../../../src/wire/chat_completions/schema_guards.ts";

type Json = Record<string, unknown>;

const TOOL = {
  type: "function",
  function: { name: "get_weather", description: "Weather", parameters: { type: "object" }, strict: true },
};
const TOOL_CALL = { id: "call_1", type: "function", function: { name: "get_weather", arguments: "{}" } };

const PAIRS: { name: string; guard: (v: unknown) => boolean; schema: z.ZodType; seeds: Json[] }[] = [
  {
    name: "request",
    guard: isPlainRequest,
    schema: requestSchema,
    seeds: [
      { model: "p/m", messages: [{ role: "user", content: "hi" }] },
      {
        model: "p/m",
        messages: [{ role: "user", content: "hi" }],
        tools: [TOOL],
        tool_choice: { type: "function", function: { name: "get_weather" } },
        stop: ["x"],
        max_tokens: 10,
        max_completion_tokens: 20,
        temperature: 0.5,
        top_p: 1,
        seed: -3,
        presence_penalty: 0,
        frequency_penalty: 0.1,
        reasoning_effort: "low",
        stream: true,
        response_format: { type: "json_object" },
      },
    ],
  },
  {
    name: "system message",
    guard: isPlainSystemMessage,
    schema: systemMessageSchema,
    seeds: [{ role: "system", content: "be brief" }, {
      role: "developer",
      content: [{ type: "text", text: "x" }],
      name: "n",
    }],
  },
  {
    name: "user message",
    guard: isPlainUserMessage,
    schema: userMessageSchema,
    seeds: [{ role: "user", content: "hi", name: "ann" }, {
      role: "user",
      content: [{ type: "text", text: "x" }, { type: "image_url", image_url: { url: "data:," } }],
    }],
  },
  {
    name: "assistant message",
    guard: isPlainAssistantMessage,
    schema: assistantMessageSchema,
    seeds: [{ role: "assistant", content: "ok" }, {
      role: "assistant",
      content: null,
      tool_calls: [TOOL_CALL, { id: "call_2", function: { name: "f", arguments: { a: 1 } } }],
      reasoning_content: "thinking",
      name: "bot",
    }],
  },
  {
    name: "tool message",
    guard: isPlainToolMessage,
    schema: toolMessageSchema,
    seeds: [{ role: "tool", tool_call_id: "call_1", content: "42" }, {
      role: "tool",
      tool_call_id: "call_1",
      content: [{ type: "text", text: "42" }],
    }],
  },
  {
    name: "text part",
    guard: isPlainTextPart,
    schema: textPartSchema,
    seeds: [{ type: "text", text: "hello" }],
  },
  {
    name: "image part",
    guard: isPlainImagePart,
    schema: imagePartSchema,
    seeds: [{ type: "image_url", image_url: { url: "https://x/y.png", detail: "low" } }, {
      type: "image_url",
      image_url: "https://x/y.png",
    }],
  },
];

/** Values a mutation may put anywhere: every JSON type, edge numbers, and objects zod treats specially. */
function oddValues(): unknown[] {
  return [
    undefined,
    null,
    "",
    "x",
    "function",
    0,
    -1,
    1.5,
    2 ** 53,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    true,
    false,
    [],
    ["x"],
    [1],
    [{}],
    [{ type: "text", text: "x" }],
    {},
    { type: "x" },
    { url: "u" },
    { name: "" },
    { name: "f" },
    Object.create(null),
    new Date(0),
    JSON.parse('{"__proto__": {"type": "x"}, "type": "text", "text": "x"}'),
  ];
}

/** A small deterministic PRNG (mulberry32), so a failure reproduces. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every container (object or array) inside `value`, the value itself first. */
function containers(value: unknown, out: (Json | unknown[])[] = []): (Json | unknown[])[] {
  if (typeof value !== "object" || value === null) return out;
  if (!Array.isArray(value) && Object.getPrototypeOf(value) !== Object.prototype) return out;
  out.push(value as Json | unknown[]);
  for (const child of Object.values(value)) containers(child, out);
  return out;
}

/** One copy of `seed` with one to three random edits (replace, delete or add a key, or an array entry). */
function mutate(seed: Json, next: () => number): Json {
  const copy = structuredClone(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
  // A fresh value each time, so an edit never puts one object in two places (or inside itself).
  const oddValue = () => pick(oddValues());
  const edits = 1 + Math.floor(next() * 3);
  for (let i = 0; i < edits; i++) {
    const target = pick(containers(copy));
    const keys = Array.isArray(target) ? target.map((_, index) => String(index)) : Object.keys(target);
    const roll = next();
    if (roll < 0.6 && keys.length > 0) {
      (target as Json)[pick(keys)] = oddValue();
    } else if (roll < 0.8 && keys.length > 0) {
      if (Array.isArray(target)) target.splice(Number(pick(keys)), 1);
      else delete target[pick(keys)];
    } else if (Array.isArray(target)) {
      target.push(oddValue());
    } else {
      target[pick(["model", "role", "content", "type", "text", "name", "extra", "tool_calls"])] = oddValue();
    }
  }
  return copy;
}

for (const pair of PAIRS) {
  Deno.test(`schema guard for ${pair.name}: whatever it accepts, zod accepts unchanged`, () => {
    for (const seed of pair.seeds) {
      assert(pair.guard(seed), `the guard turns down a valid ${pair.name}: ${JSON.stringify(seed)}`);
    }
    const next = random(0x5eed + pair.name.length);
    let accepted = 0;
    let refused = 0;
    for (let i = 0; i < 4000; i++) {
      const value = mutate(pair.seeds[i % pair.seeds.length], next);
      if (!pair.guard(value)) {
        refused++;
        continue;
      }
      accepted++;
      const parsed = pair.schema.safeParse(value);
      assert(parsed.success, `guard accepts what zod refuses: ${Deno.inspect(value)}`);
      assertEquals(parsed.data, value, `zod changes what the guard accepted: ${Deno.inspect(value)}`);
    }
    // Both sides of the guard were exercised, or the property says nothing.
    assert(accepted > 100 && refused > 100, `accepted ${accepted}, refused ${refused}`);
  });
}
