import { z } from "zod";
import { assertEquals, assertThrows } from "../../helpers/assert.ts";
import { GatewayError } from "../../../src/model/mod.ts";
import { fieldPath, invalidAt, parseAt, tryParse, zodProblem } from "../../../src/wire/shared/mod.ts";

const message = z.looseObject({
  role: z.enum(["user", "assistant"]),
  content: z.union([z.string(), z.array(z.looseObject({ type: z.string(), text: z.string() }))]),
  name: z.string().min(1).optional(),
});
const body = z.looseObject({
  model: z.string().min(1),
  messages: z.array(message).min(1),
  max_tokens: z.number().int().positive().optional(),
  temperature: z.number().max(2).optional(),
  stream: z.boolean().optional(),
  tools: z.array(z.looseObject({ name: z.string() }), { error: "must be a list of tools" }).optional(),
});

/** The message parseAt throws for `value`, after checking it is a 400 invalid_request. */
function problem(value: unknown, base: readonly PropertyKey[] = []): string {
  const error = assertThrows(() => parseAt(body, value, base), GatewayError);
  assertEquals([error.status, error.kind], [400, "invalid_request"]);
  return error.message;
}

const ok = { model: "m", messages: [{ role: "user", content: "hi" }] };

Deno.test("fieldPath() writes keys with dots and indexes in brackets; the root is `body`", () => {
  assertEquals(fieldPath(["messages", 0, "content", 2, "source"]), "messages[0].content[2].source");
  assertEquals(fieldPath([0, "x"]), "[0].x");
  assertEquals(fieldPath([]), "body");
  assertEquals(invalidAt(["tools", 1], "is odd").message, "tools[1]: is odd");
});

Deno.test("parseAt() returns the parsed value when it is valid", () => {
  assertEquals<unknown>(parseAt(body, ok), ok);
});

Deno.test("parseAt() says `is required` for a missing field, at any depth", () => {
  assertEquals(problem({ messages: ok.messages }), "model: is required");
  assertEquals(problem({ model: "m", messages: [{ content: "hi" }] }), "messages[0].role: is required");
  assertEquals(problem({ model: "m", messages: [{ role: "user" }] }), "messages[0].content: is required");
});

Deno.test("parseAt() words a wrong type as `must be <type>`", () => {
  assertEquals(problem({ ...ok, model: 42 }), "model: must be a string");
  assertEquals(problem({ ...ok, messages: "hi" }), "messages: must be an array");
  assertEquals(problem({ ...ok, stream: "yes" }), "stream: must be a boolean");
  assertEquals(problem({ ...ok, max_tokens: 1.5 }), "max_tokens: must be an integer");
  assertEquals(problem({ ...ok, messages: [5] }), "messages[0]: must be an object");
});

Deno.test("parseAt() lists the accepted values of an enum and bounds of a size", () => {
  assertEquals(
    problem({ model: "m", messages: [{ role: "bot", content: "x" }] }),
    'messages[0].role: must be one of "user", "assistant"',
  );
  assertEquals(problem({ ...ok, model: "" }), "model: must be a non-empty string");
  assertEquals(problem({ ...ok, messages: [] }), "messages: must not be empty");
  assertEquals(problem({ ...ok, max_tokens: 0 }), "max_tokens: must be greater than 0");
  assertEquals(problem({ ...ok, temperature: 3 }), "temperature: must be at most 2");
});

Deno.test("parseAt() names the types a union accepts, or the field inside the branch that got furthest", () => {
  assertEquals(
    problem({ model: "m", messages: [{ role: "user", content: 5 }] }),
    "messages[0].content: must be a string or an array",
  );
  assertEquals(
    problem({ model: "m", messages: [{ role: "user", content: [{ type: "text", text: 5 }] }] }),
    "messages[0].content[0].text: must be a string",
  );
});

Deno.test("parseAt() keeps a schema's own wording, except that a missing field is always `is required`", () => {
  assertEquals(problem({ ...ok, tools: "all" }), "tools: must be a list of tools");
  const custom = z.looseObject({ kind: z.string({ error: "must name a kind" }) });
  assertEquals(assertThrows(() => parseAt(custom, {}), GatewayError).message, "kind: is required");
});

Deno.test("parseAt() puts the base path in front of the issue's path", () => {
  assertEquals(problem({ messages: [] }, ["input", 3]), "input[3].model: is required");
  assertEquals(
    assertThrows(() => parseAt(z.string(), 5, ["tools", 0, "name"]), GatewayError).message,
    "tools[0].name: must be a string",
  );
});

Deno.test("tryParse() gives the data or an error that zodProblem() words like parseAt (for upstream 502s)", () => {
  const good = tryParse(body, ok);
  assertEquals(good.ok, true);
  const bad = tryParse(body, { model: "m", messages: [{ role: "user", content: "x", name: "" }] });
  if (bad.ok) throw new Error("expected a failed parse");
  assertEquals(zodProblem(bad.error), "messages[0].name: must be a non-empty string");
  assertEquals(zodProblem(bad.error, ["response"]), "response.messages[0].name: must be a non-empty string");
});
