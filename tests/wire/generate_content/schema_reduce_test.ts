import { assertEquals } from "../../helpers/assert.ts";
import { reduceSchema } from "../../../src/wire/generate_content/mod.ts";

Deno.test("reduceSchema() turns a Claude-Code-like tool schema into Gemini's subset", () => {
  const input = {
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    additionalProperties: false,
    $defs: {
      Todo: {
        type: "object",
        additionalProperties: false,
        properties: {
          content: { type: "string", minLength: 1 },
          status: { type: "string", enum: ["pending", "in_progress", "completed"] },
          priority: { anyOf: [{ type: "string", enum: ["low", "high"] }, { type: "null" }], default: null },
        },
        required: ["content", "status"],
      },
    },
    properties: {
      todos: { type: "array", items: { $ref: "#/$defs/Todo" }, minItems: 1, description: "The list" },
      mode: { const: "replace" },
      timeout: { type: ["number", "null"], exclusiveMinimum: 0, maximum: 600000, examples: [1000] },
      when: { type: "string", format: "date-time" },
      url: { type: "string", format: "uri" },
      level: { type: "integer", enum: [1, 2, 3], description: "Depth." },
      meta: { type: "object", "x-internal": true },
    },
    required: ["todos", "missing"],
  };
  assertEquals(reduceSchema(input), {
    type: "object",
    properties: {
      todos: {
        type: "array",
        description: "The list",
        items: {
          type: "object",
          properties: {
            content: { type: "string" },
            status: { type: "string", enum: ["pending", "in_progress", "completed"] },
            priority: { type: "string", enum: ["low", "high"], nullable: true },
          },
          required: ["content", "status"],
        },
        minItems: 1,
      },
      mode: { type: "string", enum: ["replace"] },
      timeout: { type: "number", maximum: 600000, nullable: true },
      when: { type: "string", format: "date-time" },
      url: { type: "string" },
      level: { type: "integer", description: "Depth. Allowed values: 1, 2, 3." },
      meta: { type: "object" },
    },
    required: ["todos"],
  });
});

Deno.test("reduceSchema() inlines definitions refs and cuts recursive ones", () => {
  const input = {
    type: "object",
    definitions: {
      Node: {
        type: "object",
        properties: {
          name: { type: "string" },
          children: { type: "array", items: { $ref: "#/definitions/Node" } },
        },
      },
    },
    properties: { root: { $ref: "#/definitions/Node", description: "Tree root" } },
  };
  assertEquals(reduceSchema(input), {
    type: "object",
    properties: {
      root: {
        type: "object",
        properties: {
          name: { type: "string" },
          children: { type: "array", items: { type: "object" } },
        },
        description: "Tree root",
      },
    },
  });
});

Deno.test("reduceSchema() keeps real unions as anyOf and merges allOf", () => {
  assertEquals(
    reduceSchema({
      type: "object",
      properties: {
        value: { oneOf: [{ type: "string" }, { type: "number" }, { type: "null" }] },
        both: {
          allOf: [
            { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
            { properties: { b: { type: "boolean" } }, required: ["b"] },
          ],
        },
        multi: { type: ["string", "integer"] },
      },
    }),
    {
      type: "object",
      properties: {
        value: { anyOf: [{ type: "string" }, { type: "number" }], nullable: true },
        both: {
          type: "object",
          properties: { a: { type: "string" }, b: { type: "boolean" } },
          required: ["a", "b"],
        },
        multi: { anyOf: [{ type: "string" }, { type: "integer" }] },
      },
    },
  );
});
