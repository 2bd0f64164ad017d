/**
 * Conformance of the legacy completions surface (`/v1/completions`): for each upstream wire format, stream
 * and not, the text a client reads, its finish and usage, and the exact client bytes against golden files
 * (UPDATE_GOLDEN=1 rewrites them). The prompt reaches each upstream as its own format's user turn.
 */
import { codecFor } from "../../src/wire/mod.ts";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { startFormatUpstream, upstreamLabelOf } from "../helpers/format_upstream.ts";
import { startTestGateway } from "../helpers/gateway.ts";
import { apiKeyFor } from "../e2e/harness.ts";
import { type ScenarioName, scenarioResponse } from "../fixtures/neutral_scenarios.ts";

const UPSTREAMS = [
  { prefix: "up_chat", format: "chat_completions", apiType: "chat_compat", path: "/v1" },
  { prefix: "up_messages", format: "messages", apiType: "messages_native", path: "" },
  { prefix: "up_generate", format: "generate_content", apiType: "generate_native", path: "" },
  { prefix: "up_responses", format: "responses", apiType: "responses_native", path: "/v1" },
] as const;
// Answers whose text is the whole completion (reasoning is left out: a text completion has no field for it).
const SCENARIOS: readonly ScenarioName[] = ["text", "reasoning", "cache_usage"];
const FIXED_NOW = 1_763_700_000_000;
const GOLDEN_DIR = new URL("../fixtures/golden/", import.meta.url);
const UPDATE = Deno.env.get("UPDATE_GOLDEN") === "1";

interface Completion {
  text: string;
  finish: string | null;
  usage: { prompt_tokens: number; completion_tokens: number } | undefined;
  errors: string[];
}

/** What an OpenAI client reads from a legacy completion's bytes, stream or not. */
function readCompletion(stream: boolean, text: string): Completion {
  const bodies = stream
    ? text.split("\n").filter((l) => l.startsWith("data: ") && l !== "data: [DONE]").map((l) =>
      JSON.parse(l.slice(6))
    )
    : [JSON.parse(text)];
  if (stream) assert(text.trimEnd().endsWith("data: [DONE]"), "the stream ends with [DONE]");
  const out: Completion = { text: "", finish: null, usage: undefined, errors: [] };
  for (const body of bodies) {
    if (body.error) {
      out.errors.push(body.error.message);
      continue;
    }
    assertEquals(body.object, "text_completion");
    out.text += body.choices[0]?.text ?? "";
    out.finish = body.choices[0]?.finish_reason ?? out.finish;
    out.usage = body.usage ?? out.usage;
  }
  return out;
}

function expectedText(scenario: ScenarioName): string {
  return scenarioResponse(scenario).parts.map((p) => (p.kind === "text" ? p.text : "")).join("");
}

Deno.test("conformance: legacy completions × 4 upstream formats × stream/non-stream, golden bytes", async (t) => {
  const mock = await startFormatUpstream((scenario) => {
    if (scenario === "error_after") return { kind: "break_after_text", text: "Partial ans" };
    return { kind: "answer", response: scenarioResponse(scenario as ScenarioName) };
  });
  const yaml = "providers:\n" +
    UPSTREAMS.map((u) =>
      `  - id: ${u.prefix}-1\n    prefix: ${u.prefix}\n    api_type: ${u.apiType}\n    base_url: ${mock.url}${u.path}\n` +
      `    api_key: '${apiKeyFor(u.prefix)}'\n    models: [text]\n`
    ).join("");
  const gw = await startTestGateway(yaml, { now: () => FIXED_NOW });
  const send = async (model: string, stream: boolean) => {
    const response = await fetch(`${gw.url}/v1/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model, prompt: "Say hello.", max_tokens: 50, stream }),
    });
    return { status: response.status, text: await response.text() };
  };
  try {
    for (const upstream of UPSTREAMS) {
      const golden: string[] = [];
      await t.step(upstream.format, async () => {
        for (const stream of [false, true]) {
          for (const scenario of SCENARIOS) {
            const label = `${scenario} ${stream ? "stream" : "non-stream"}`;
            const before = mock.requests.length;
            const { status, text } = await send(`${upstream.prefix}/${scenario}`, stream);
            assertEquals(status, 200, `${label}: ${text.slice(0, 300)}`);
            const sent = mock.requests[before];
            assertEquals(upstreamLabelOf(sent.path), upstream.format);
            const asked = codecFor(upstream.format).decodeRequest(sent.body, {
              pathModel: `x/${scenario}`,
              endpoint: "chat",
            });
            assertEquals(asked.messages.map((m) => [m.role, m.parts]), [
              ["user", [{ kind: "text", text: "Say hello." }]],
            ]);
            assertEquals(asked.params.maxTokens, 50);
            const got = readCompletion(stream, text);
            const expected = scenarioResponse(scenario);
            assertEquals(got.text, expectedText(scenario), label);
            assertEquals(got.finish, "stop", label);
            assertEquals(
              [got.usage?.prompt_tokens, got.usage?.completion_tokens],
              [expected.usage.inputTotal, expected.usage.output],
              label,
            );
            golden.push(`### ${label}\n${text}`);
          }
        }
        const cut = await send(`${upstream.prefix}/error_after`, true);
        assertEquals(cut.status, 200, "after the first byte there is no fallback");
        const partial = readCompletion(true, cut.text);
        assertStringIncludes(partial.text, "Partial ans");
        assert(partial.errors.length > 0, "the cut is visible as an error chunk");
        golden.push(`### error_after stream\n${cut.text}`);
      });
      const file = new URL(`legacy_completions__${upstream.format}.txt`, GOLDEN_DIR);
      const actual = golden.join("\n");
      if (UPDATE) Deno.writeTextFileSync(file, actual);
      else {assertEquals(
          actual,
          Deno.readTextFileSync(file),
          `golden bytes for completions ← ${upstream.format}`,
        );}
    }
  } finally {
    await gw.stop();
    await mock.close();
  }
});
