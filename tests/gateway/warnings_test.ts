import type {
  GatewayWarning,
  Message,
  NeutralRequest,
  Part,
  UpstreamFormat,
  WireFormat,
} from "../../src/model/mod.ts";
import { addWarnings, droppedField, WARNING_CODES } from "../../src/model/mod.ts";
import { codecFor, upstreamCodecFor } from "../../src/wire/mod.ts";
import { embeddingsCodecFor } from "../../src/wire/embeddings.ts";
import { rerankCodecFor } from "../../src/wire/rerank.ts";
import { applyAdjustments, prefetchImages } from "../../src/adjustments/mod.ts";
import { droppedExtraWarnings, warningsHeaderValue } from "../../src/gateway/warnings.ts";
import { assert, assertEquals } from "../helpers/assert.ts";
import { target } from "../adjustments/fixtures.ts";

/** The `dropped_field:<name>` row: a field named by the client's own format. */
const CLIENT_FIELD = "dropped_field:<name>";

/** The codes of docs/warnings.md's table, read from the document users read. */
async function documentedCodes(): Promise<string[]> {
  const text = await Deno.readTextFile(new URL("../../docs/warnings.md", import.meta.url));
  const section = text.slice(text.indexOf("## Codes"));
  return [...section.matchAll(/^\| `([^`]+)` +\|/gm)].map((m) => m[1]);
}

/** Whether a produced code is one the docs list (a fixed code, or a client field under `<name>`). */
function isDocumented(code: string, documented: readonly string[]): boolean {
  if (documented.includes(code)) return true;
  return documented.includes(CLIENT_FIELD) && /^dropped_field:[a-z0-9_.-]{1,64}$/.test(code);
}

const image = { kind: "image", source: { type: "url", url: "https://example.com/a.png" } } as const;
const tools = [{ name: "f", parameters: { type: "object" } }];

function ask(overrides: Partial<NeutralRequest> = {}, source: WireFormat = "messages"): NeutralRequest {
  return {
    model: "p/m",
    source,
    stream: false,
    system: [],
    tools: [],
    params: {},
    messages: [{ role: "user", parts: [{ kind: "text", text: "hi" }] }],
    ...overrides,
  };
}

/** A user turn, then `parts` as an assistant turn (and tool results, when given, as the next turn). */
function turns(assistant: readonly Part[], results: readonly Part[] = []): Message[] {
  return [
    { role: "user", parts: [{ kind: "text", text: "hi" }] },
    { role: "assistant", parts: assistant },
    ...(results.length > 0 ? [{ role: "tool" as const, parts: results }] : []),
  ];
}

const call = (args = "{}", extra: Partial<Extract<Part, { kind: "toolCall" }>> = {}): Part => ({
  kind: "toolCall",
  id: "c1",
  name: "f",
  arguments: args,
  ...extra,
});

const encode = (target: UpstreamFormat, request: NeutralRequest, model = "m") => () =>
  upstreamCodecFor(target).encodeRequest(request, model).warnings;

/** One loss each real producer reports: where it happens, the request that causes it, the codes expected. */
interface Case {
  readonly path: string;
  readonly codes: readonly string[];
  readonly warnings: () => readonly GatewayWarning[] | Promise<readonly GatewayWarning[]>;
}

const CASES: readonly Case[] = [
  // rerank: a /v1/rerank request with object documents and v1-only fields to a Cohere v2 upstream
  {
    path: "rerank: object documents, rank_fields and max_chunks_per_doc to a Cohere v2 upstream",
    codes: ["changed_field:documents", "dropped_field:max_chunks_per_doc", "dropped_field:rank_fields"],
    warnings: () =>
      Promise.resolve(
        rerankCodecFor("v2").encodeRequest(
          rerankCodecFor("v1").decodeRequest({
            model: "co/rerank-v3.5",
            query: "q",
            documents: ["plain", { text: "an object", title: "t" }],
            rank_fields: ["text"],
            max_chunks_per_doc: 3,
          }),
          "rerank-v3.5",
        ).warnings,
      ),
  },
  // embeddings: a Gemini request (task, title) to OpenAI; an OpenAI one (user) and an Ollama one to Gemini
  {
    path: "embeddings: Gemini taskType and title to an OpenAI-compatible upstream",
    codes: ["dropped_field:task_type", "dropped_field:title"],
    warnings: () =>
      Promise.resolve(
        embeddingsCodecFor("openai").encodeRequest(
          embeddingsCodecFor("gemini").decodeRequest({
            content: { parts: [{ text: "doc" }] },
            taskType: "RETRIEVAL_DOCUMENT",
            title: "T",
          }, { pathModel: "gem/text-embedding-004", endpoint: "embedContent" }),
          "text-embedding-3-small",
        ).warnings,
      ),
  },
  {
    path: "embeddings: OpenAI user and Ollama truncate false to a Gemini upstream",
    codes: ["dropped_field:user", "dropped_field:truncate"],
    warnings: () =>
      Promise.resolve([
        ...embeddingsCodecFor("gemini").encodeRequest(
          embeddingsCodecFor("openai").decodeRequest({ model: "m", input: "a", user: "u" }, {}),
          "gemini-embedding-001",
        ).warnings,
        ...embeddingsCodecFor("gemini").encodeRequest(
          embeddingsCodecFor("ollama").decodeRequest({ model: "m", input: "a", truncate: false }, {
            endpoint: "embed",
          }),
          "gemini-embedding-001",
        ).warnings,
      ]),
  },
  // chat_completions
  {
    path: "chat_completions: top_k, a reasoning budget, cache hints from another format",
    codes: ["dropped_field:top_k", "changed_field:reasoning_budget", "dropped_field:cache_control"],
    warnings: encode(
      "chat_completions",
      ask({
        params: { topK: 5 },
        reasoning: { budgetTokens: 4000 },
        system: [{ kind: "text", text: "s", cacheControl: { type: "ephemeral" } }],
      }),
    ),
  },
  {
    path: "chat_completions: reasoning and a tool call in a user message",
    codes: ["dropped_part:reasoning", "dropped_part:tool_call"],
    warnings: encode(
      "chat_completions",
      ask({
        messages: [{
          role: "user",
          parts: [{ kind: "text", text: "hi" }, { kind: "reasoning", text: "r", family: "openai" }, call()],
        }],
      }),
    ),
  },
  {
    path: "chat_completions: signed and redacted reasoning, an assistant image, a signed call",
    codes: [
      "dropped_part:signature",
      "dropped_part:redacted_reasoning",
      "dropped_part:image",
    ],
    warnings: encode(
      "chat_completions",
      ask({
        messages: turns([
          { kind: "reasoning", text: "r", signature: "sig", family: "anthropic" },
          { kind: "reasoning", text: "", redactedData: "blob", family: "anthropic" },
          image,
          call("{}", { signature: "tsig", family: "google" }),
        ]),
      }),
    ),
  },
  {
    path: "chat_completions: a tool result with an image and an error flag, a stray part in a tool message",
    codes: ["dropped_part:image", "dropped_field:tool_error", "dropped_part:misplaced"],
    warnings: encode(
      "chat_completions",
      ask({
        messages: turns([call()], [
          { kind: "toolResult", callId: "c1", content: [{ kind: "text", text: "r" }, image], isError: true },
          { kind: "text", text: "stray" },
        ]),
      }),
    ),
  },
  {
    path: "chat_completions: a Gemini 3 step's first call without a signature",
    codes: ["changed_part:signature"],
    warnings: encode(
      "chat_completions",
      ask({ messages: turns([call()], [{ kind: "toolResult", callId: "c1", content: [] }]) }),
      "gemini-3-pro-preview",
    ),
  },
  // messages
  {
    path: "messages: sampling with thinking on, parameters it has no place for",
    codes: [
      "dropped_field:temperature",
      "dropped_field:top_p",
      "dropped_field:top_k",
      "dropped_field:seed",
      "dropped_field:presence_penalty",
      "dropped_field:frequency_penalty",
      "changed_field:max_tokens",
    ],
    warnings: encode(
      "messages",
      ask({
        reasoning: { budgetTokens: 2000 },
        params: {
          maxTokens: 100,
          temperature: 0.5,
          topP: 0.5,
          topK: 5,
          seed: 1,
          presencePenalty: 0.1,
          frequencyPenalty: 0.1,
        },
      }, "chat_completions"),
    ),
  },
  {
    path: "messages: a budget under the minimum",
    codes: ["changed_field:thinking_budget"],
    warnings: encode("messages", ask({ reasoning: { budgetTokens: 100 } }, "generate_content")),
  },
  {
    path: "messages: thinking while tool_choice forces a tool",
    codes: ["dropped_field:thinking"],
    warnings: encode(
      "messages",
      ask({ tools, toolChoice: { type: "required" }, reasoning: { effort: "high" } }, "chat_completions"),
    ),
  },
  {
    path: "messages: thinking on for a tool-use turn with no signed thinking block",
    codes: ["changed_field:thinking"],
    warnings: encode(
      "messages",
      ask({
        tools,
        reasoning: { effort: "high" },
        messages: turns([call()], [{
          kind: "toolResult",
          callId: "c1",
          content: [{ kind: "text", text: "r" }],
        }]),
      }, "chat_completions"),
    ),
  },
  {
    path: "messages: image detail, unsigned reasoning, non-object arguments, an assistant image",
    codes: [
      "dropped_field:image_detail",
      "dropped_part:reasoning",
      "changed_field:tool_arguments",
      "dropped_part:misplaced",
    ],
    warnings: encode(
      "messages",
      ask({
        messages: [
          { role: "user", parts: [{ ...image, detail: "high" }] },
          {
            role: "assistant",
            parts: [{ kind: "reasoning", text: "r", family: "openai" }, image, call("[1]")],
          },
        ],
      }, "responses"),
    ),
  },
  // responses
  {
    path: "responses: stop, seed, top_k, penalties, tool error flags, assistant images, foreign reasoning",
    codes: [
      "dropped_field:stop",
      "dropped_field:seed",
      "dropped_field:top_k",
      "dropped_field:presence_penalty",
      "dropped_field:frequency_penalty",
      "dropped_field:tool_error",
      "dropped_part:image",
      "dropped_part:reasoning",
    ],
    warnings: encode(
      "responses",
      ask({
        params: { stop: ["x"], seed: 1, topK: 5, presencePenalty: 0.1, frequencyPenalty: 0.1 },
        messages: turns(
          [{ kind: "reasoning", text: "r", family: "anthropic" }, image, call()],
          [{ kind: "toolResult", callId: "c1", content: [{ kind: "text", text: "r" }], isError: true }],
        ),
      }),
    ),
  },
  // generate_content
  {
    path: "generate_content: another format's fields, cache hints, too many stop sequences",
    codes: ["dropped_field:store", "dropped_field:cache_control", "changed_field:stop"],
    warnings: encode(
      "generate_content",
      ask({
        extra: { format: "responses", fields: { store: true } },
        system: [{ kind: "text", text: "s", cacheControl: { type: "ephemeral" } }],
        params: { stop: ["a", "b", "c", "d", "e", "f"] },
      }, "responses"),
    ),
  },
  {
    path: "generate_content: an orphan result with an image, non-object arguments, foreign reasoning",
    codes: [
      "changed_field:tool_result_name",
      "dropped_part:image",
      "changed_field:tool_arguments",
      "dropped_part:reasoning",
    ],
    warnings: encode(
      "generate_content",
      ask({
        messages: turns(
          [{ kind: "reasoning", text: "r", family: "anthropic" }, call("[1]")],
          [{ kind: "toolResult", callId: "nobody", content: [image] }],
        ),
      }),
    ),
  },
  {
    path: "generate_content: a Gemini 3 step's first call without a signature",
    codes: ["changed_part:signature"],
    warnings: encode(
      "generate_content",
      ask({ messages: turns([call()], [{ kind: "toolResult", callId: "c1", content: [] }]) }),
      "gemini-3-pro-preview",
    ),
  },
  // local_runner
  {
    path: "local_runner: a URL image, a tool error flag, a forced tool, non-object arguments",
    codes: [
      "dropped_part:image",
      "dropped_field:tool_error",
      "dropped_field:tool_choice",
      "changed_field:tool_arguments",
    ],
    warnings: encode(
      "local_runner",
      ask({
        tools,
        toolChoice: { type: "required" },
        messages: [
          { role: "user", parts: [image] },
          ...turns([call("[1]")], [{ kind: "toolResult", callId: "c1", content: [], isError: true }]).slice(
            1,
          ),
        ],
      }),
    ),
  },
  {
    path: "local_runner: a generate-only field",
    codes: ["dropped_field:suffix"],
    warnings: () =>
      codecFor("local_runner").encodeRequest(
        codecFor("local_runner").decodeRequest({ model: "m", prompt: "Hi", suffix: "END" }, {
          endpoint: "generate",
        }),
        "m",
      ).warnings,
  },
  // cloud_assistant
  {
    path: "cloud_assistant: stop, seed, top_k, tool choice, reasoning, images, non-object arguments",
    codes: [
      "dropped_field:stop",
      "dropped_field:seed",
      "dropped_field:top_k",
      "dropped_field:tool_choice",
      "dropped_field:thinking",
      "dropped_part:image",
      "changed_field:tool_arguments",
    ],
    warnings: encode(
      "cloud_assistant",
      ask({
        tools,
        toolChoice: { type: "required" },
        reasoning: { effort: "low" },
        params: { stop: ["x"], seed: 1, topK: 5 },
        messages: turns([call("[1]")], [{ kind: "toolResult", callId: "c1", content: [image] }]),
      }),
    ),
  },
  // adjustments and the gateway
  {
    path: "strip_images: images for a model known to lack vision",
    codes: ["dropped_part:image"],
    warnings: () =>
      applyAdjustments(
        ask({ messages: [{ role: "user", parts: [image] }] }),
        target("deepseek-chat", "chat_completions"),
      ).warnings,
  },
  {
    path: "image prefetch: a URL refused for an inline-only upstream",
    codes: ["changed_part:image_not_fetched"],
    warnings: async () =>
      (await prefetchImages(ask({ messages: [{ role: "user", parts: [image] }] }), [image.source.url], {
        resolve: () => Promise.resolve(["10.0.0.1"]),
        get: () => Promise.reject(new Error("never fetched")),
        isAllowedAddress: () => false,
      })).warnings,
  },
  {
    path: "droppedExtraWarnings(): the client format's own fields for another format",
    codes: ["dropped_field:store", "dropped_field:prev_resp"],
    warnings: () =>
      droppedExtraWarnings(
        ask({ extra: { format: "responses", fields: { store: true, prevResp: "x" } } }, "responses"),
        "messages",
      ),
  },
];

for (const c of CASES) {
  Deno.test(`${c.path}: reported as ${c.codes.join(", ")}`, async () => {
    const warnings = await c.warnings();
    const codes = warnings.map((w) => w.code);
    for (const code of c.codes) assert(codes.includes(code), `expected ${code} among ${codes.join(", ")}`);
    for (const w of warnings) assert(w.message !== "", `${w.code} has no sentence`);
    const documented = await documentedCodes();
    for (const code of codes) assert(isDocumented(code, documented), `${code} is not in docs/warnings.md`);
  });
}

Deno.test("docs/warnings.md lists exactly the typed codes, and each comes out of a real producer above", async () => {
  const documented = await documentedCodes();
  assertEquals(
    [...documented].sort(),
    [...WARNING_CODES, CLIENT_FIELD].sort(),
    "docs/warnings.md and WARNING_CODES disagree",
  );
  const produced = new Set(CASES.flatMap((c) => c.codes));
  for (const code of WARNING_CODES) assert(produced.has(code), `no case produces documented ${code}`);
  assert(
    [...produced].some((code) => !(WARNING_CODES as readonly string[]).includes(code)),
    "no case produces a dropped_field:<name> code",
  );
});

Deno.test("a lossy request in every format to every upstream yields documented codes only", async () => {
  const documented = await documentedCodes();
  const sources: readonly WireFormat[] = [
    "chat_completions",
    "responses",
    "messages",
    "generate_content",
    "local_runner",
  ];
  const targets: readonly UpstreamFormat[] = [...sources, "cloud_assistant"];
  for (const source of sources) {
    for (const target of targets) {
      const request = ask({
        params: { maxTokens: 10, temperature: 0.5, topP: 0.5, topK: 5, stop: ["a", "b", "c", "d", "e", "f"] },
        reasoning: { budgetTokens: 100 },
        extra: { format: source, fields: { "weird Field!": 1 } },
        tools,
        toolChoice: { type: "tool", name: "f" },
        messages: turns(
          [{ kind: "reasoning", text: "r", signature: "s", family: "openai" }, image, call("[1]")],
          [{ kind: "toolResult", callId: "zz", content: [image], isError: true }, {
            kind: "text",
            text: "x",
          }],
        ),
      }, source);
      const warnings = [
        ...droppedExtraWarnings(request, target),
        ...upstreamCodecFor(target).encodeRequest(request, "gemini-3-pro-preview").warnings,
      ];
      for (const w of warnings) {
        assert(isDocumented(w.code, documented), `${source} → ${target}: ${w.code} is not documented`);
      }
    }
  }
});

Deno.test("droppedField() makes a client's field name header-safe and keeps its spelling in detail", () => {
  assertEquals(droppedField("prevResp", "m"), {
    code: "dropped_field:prev_resp",
    message: "m",
    detail: { field: "prevResp" },
  });
  assertEquals(droppedField("a b\u00e9,x", "m").code, "dropped_field:a_b__x");
  assertEquals(droppedField("", "m").code, "dropped_field:_");
  assertEquals(droppedField("x".repeat(100), "m").code.length, "dropped_field:".length + 64);
});

Deno.test("warnings keep one entry per code; the header lists codes and caps their number", () => {
  const list: GatewayWarning[] = droppedExtraWarnings(
    ask({ extra: { format: "responses", fields: { store: true, truncation: "auto" } } }, "responses"),
    "generate_content",
  );
  addWarnings(list, [
    droppedField("store", "a second sentence for the same code"),
    { code: "dropped_field:seed", message: "seed cannot be expressed" },
  ]);
  assertEquals(list.map((w) => w.code), [
    "dropped_field:store",
    "dropped_field:truncation",
    "dropped_field:seed",
  ]);
  assertEquals(
    list[0].message,
    "store: a responses field the generate_content upstream cannot express; dropped",
  );
  assertEquals(warningsHeaderValue(list), "dropped_field:store,dropped_field:truncation,dropped_field:seed");
  const many = Array.from({ length: 40 }, (_, i) => ({ code: `dropped_field:f${i}`, message: "" }));
  const header = warningsHeaderValue(many).split(",");
  assertEquals([header.length, header.at(-1)], [33, "more:8"]);
});

Deno.test("droppedExtraWarnings() reports a client format's own fields only when the target differs", () => {
  const request = ask({ extra: { format: "responses", fields: { store: true } } }, "responses");
  assertEquals(droppedExtraWarnings(request, "responses"), []);
  assertEquals(droppedExtraWarnings(request, "messages").map((w) => w.code), ["dropped_field:store"]);
});

Deno.test("tool-call arguments that are not a JSON object are never turned into {} silently", () => {
  const deep = "[".repeat(200) + "]".repeat(200);
  for (const target of ["messages", "generate_content", "local_runner", "cloud_assistant"] as const) {
    const { warnings } = upstreamCodecFor(target).encodeRequest(ask({ messages: turns([call(deep)]) }), "m");
    const codes = warnings.map((w) => w.code);
    assert(codes.includes("changed_field:tool_arguments"), `${target}: ${codes.join(", ")}`);
  }
});
