/**
 * The real Codex CLI (`codex exec`, from npm) against the gateway: a tool turn, Codex's remote
 * compaction, and the turn after it, over HTTP and over the WebSocket transport, with a Responses
 * upstream (compaction passes through) and a chat upstream (the gateway writes the compaction).
 * Timings are printed, never asserted.
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { cliBinary, CODEX_PACKAGE } from "../helpers/cli_clients.ts";
import { startTestGateway } from "../helpers/gateway.ts";
import { type RecordedRequest, startMockUpstream } from "../helpers/mock_upstream.ts";
import type { NeutralResponse, Usage, WireFormat } from "../../src/model/mod.ts";
import { textAnswer, toolAnswer } from "./harness.ts";
import { codecFor } from "../../src/wire/mod.ts";
import { responseEvents } from "../../src/gateway/dispatch.ts";
import { COMPACTION_PROMPT, compactionStream, SUMMARY_HEADING } from "../../src/wire/responses/compaction.ts";

const codex = await cliBinary(CODEX_PACKAGE, "codex");
if ("skip" in codex) console.log(`SKIPPED Codex CLI e2e: ${codex.skip}`);

const UPSTREAM_STATE = "upstream-opaque-compaction-state";
const SUMMARY = "SUMMARY: the user asked to greet; `echo hi` printed hi.";

function usage(inputTotal: number): Usage {
  return { inputTotal, cacheRead: 0, cacheWrite: 0, output: 8, reasoning: 0 };
}

/** The scripted agent: a shell call first (big usage, so Codex compacts), then the final answer. */
function agentTurn(request: RecordedRequest, format: WireFormat): NeutralResponse {
  const text = JSON.stringify(request.body);
  if (text.includes(COMPACTION_PROMPT.slice(0, 40))) {
    return textAnswer(SUMMARY, usage(900));
  }
  const decoded = codecFor(format).decodeRequest(request.body, { endpoint: "chat" });
  // Once the shell ran (its result, or a compaction standing for it, is in the history) the agent is done.
  const answered = decoded.messages.some((m) => m.parts.some((p) => p.kind === "toolResult")) ||
    text.includes(SUMMARY_HEADING) || text.includes(UPSTREAM_STATE);
  if (answered) return textAnswer("ALL DONE", usage(300));
  return toolAnswer([["exec_command", '{"cmd":"echo hi"}', "call_echo_1"]], "", usage(5000));
}

async function startAgentUpstream() {
  const mock = await startMockUpstream();
  mock.script({
    handler: async (request) => {
      const format: WireFormat = request.path.endsWith("/chat/completions")
        ? "chat_completions"
        : "responses";
      const codec = codecFor(format);
      const input = request.body.input;
      if (Array.isArray(input) && input.some((item) => item?.type === "compaction_trigger")) {
        // A Responses upstream that compacts natively, like the real API.
        const item = { id: "cmp_up_1", type: "compaction", encrypted_content: UPSTREAM_STATE };
        const meta = {
          id: "resp_up_cmp",
          model: "upstream-model",
          createdAt: 1_700_000_000,
          usage: undefined,
        };
        return new Response(compactionStream(meta, item), {
          headers: { "content-type": "text/event-stream" },
        });
      }
      const answer = agentTurn(request, format);
      const ctx = { requestModel: String(request.body.model), now: 1_700_000_000 };
      if (request.body.stream !== true) return Response.json(codec.encodeResponse(answer, ctx));
      const sse = await Array.fromAsync(
        ReadableStream.from(responseEvents(answer)).pipeThrough(codec.encodeStream(ctx)),
      );
      return new Response(sse.join(""), { headers: { "content-type": "text/event-stream" } });
    },
  });
  return mock;
}

async function runCodex(binary: string, gatewayUrl: string, model: string, websockets: boolean) {
  const home = await Deno.makeTempDir({ prefix: "gateway-codex-" });
  const codexHome = join(home, ".codex");
  await Deno.mkdir(codexHome);
  // name = "OpenAI" is what makes Codex use remote compaction; the key comes from GATEWAY_API_KEY.
  await Deno.writeTextFile(
    join(codexHome, "config.toml"),
    `model = "${model}"\nmodel_provider = "gateway"\nmodel_auto_compact_token_limit = 1000\n` +
      `check_for_update_on_startup = false\n\n[model_providers.gateway]\nname = "OpenAI"\n` +
      `base_url = "${gatewayUrl}/v1"\nwire_api = "responses"\nenv_key = "GATEWAY_API_KEY"\n` +
      `supports_websockets = ${websockets}\n`,
  );
  const started = performance.now();
  const out = await new Deno.Command(binary, {
    args: ["exec", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", "say hi"],
    cwd: home,
    clearEnv: true,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: home,
      CODEX_HOME: codexHome,
      GATEWAY_API_KEY: "sk-gateway-test",
      // Anything that is not loopback goes to a closed local port and fails at once.
      HTTPS_PROXY: "http://127.0.0.1:9",
      HTTP_PROXY: "http://127.0.0.1:9",
      NO_PROXY: "127.0.0.1,localhost",
    },
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(60_000),
  }).output();
  const seconds = (performance.now() - started) / 1000;
  await Deno.remove(home, { recursive: true });
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  return { code: out.code, text, seconds };
}

for (const upstream of ["responses", "chat"] as const) {
  for (const websockets of [false, true]) {
    const transport = websockets ? "WebSocket" : "HTTP";
    Deno.test({
      name:
        `codex exec finishes a tool turn, a remote compaction and the next turn through a ${upstream} upstream over ${transport}`,
      ignore: "skip" in codex,
      sanitizeResources: false,
      sanitizeOps: false,
      async fn() {
        if ("skip" in codex) return;
        await using mock = { ...(await startAgentUpstream()), [Symbol.asyncDispose]: () => mock.close() };
        const apiType = upstream === "chat" ? "chat_compat" : "responses_native";
        const gw = await startTestGateway(
          `providers:\n  - id: up-1\n    prefix: up\n    api_type: ${apiType}\n    base_url: ${mock.url}/v1\n` +
            `    api_key: upstream-key\n    models: [agent]\n`,
        );
        try {
          const run = await runCodex(codex.path, gw.url, "up/agent", websockets);
          console.log(
            `codex exec via ${upstream} upstream over ${transport}: ${
              run.seconds.toFixed(2)
            } s (exit ${run.code})`,
          );
          assertEquals(run.code, 0, run.text);
          assertStringIncludes(run.text, "ALL DONE");
          assert(!/compaction output item|retrying|reconnect/i.test(run.text), run.text);
          assert(
            !/failed to connect to Responses WebSocket|Falling back from WebSockets/.test(run.text),
            run.text,
          );
          const last = mock.requests.at(-1)!;
          const lastBody = JSON.stringify(last.body);
          if (upstream === "chat") {
            // The gateway wrote the compaction; the next turn carries its summary to the upstream.
            assert(
              mock.requests.some((r) => JSON.stringify(r.body).includes(COMPACTION_PROMPT.slice(0, 40))),
            );
            assertStringIncludes(lastBody, SUMMARY_HEADING);
            assertStringIncludes(lastBody, "echo hi");
          } else {
            // The Responses upstream compacted natively; its opaque state comes back to it verbatim.
            assertStringIncludes(lastBody, UPSTREAM_STATE);
          }
        } finally {
          await gw.stop();
        }
      },
    });
  }
}
