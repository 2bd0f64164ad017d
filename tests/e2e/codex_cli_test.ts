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
import { COMPACTION_PROMPT, SUMMARY_HEADING } from "../../src/wire/responses/compaction.ts";
import { startAgentUpstream, UPSTREAM_STATE, watchRequests } from "./codex_agent.ts";

const codex = await cliBinary(CODEX_PACKAGE, "codex");
if ("skip" in codex) console.log(`SKIPPED Codex CLI e2e: ${codex.skip}`);

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
          const served = watchRequests(gw);
          const run = await runCodex(codex.path, gw.url, "up/agent", websockets);
          console.log(
            `codex exec via ${upstream} upstream over ${transport}: ${
              run.seconds.toFixed(2)
            } s (exit ${run.code}); served: ${served.map((r) => `${r.kind}/${r.transport}`).join(" ")}`,
          );
          assertEquals(run.code, 0, run.text);
          assertStringIncludes(run.text, "ALL DONE");
          assert(!/compaction output item|retrying|reconnect/i.test(run.text), run.text);
          assert(
            !/failed to connect to Responses WebSocket|Falling back from WebSockets/.test(run.text),
            run.text,
          );
          // Every model request came over the transport under test (the gateway marks WebSocket
          // messages), and Codex compacted remotely, inline. The gateway's summary call for a chat
          // upstream is part of the compaction request (one trace), never a request of its own.
          assertEquals(
            served.map((r) => `${r.kind}/${r.transport}`),
            ["turn", "trigger", "turn"].map((kind) => `${kind}/${websockets ? "websocket" : "http"}`),
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
