/**
 * The Tools screen's printed setups, fed as printed to the real clients from npm: Codex CLI's
 * config.toml (including the remote compaction and WebSocket transport its notes promise), Gemini CLI's,
 * Claude Code's and Qwen Code's settings must each finish a non-interactive run through the gateway. Skips (saying why) only when npm cannot install a client.
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import {
  CLAUDE_CODE_PACKAGE,
  cliBinary,
  CODEX_PACKAGE,
  GEMINI_CLI_PACKAGE,
  QWEN_CODE_PACKAGE,
} from "../helpers/cli_clients.ts";
import { toolCards } from "../../src/dashboard/state/tool_cards.ts";
import { startE2E, textAnswer } from "./harness.ts";
import { startAgentUpstream, watchRequests } from "./codex_agent.ts";
import { startTestGateway } from "../helpers/gateway.ts";
import { startPathRecorder } from "../helpers/path_recorder.ts";
import { SUMMARY_HEADING } from "../../src/wire/responses/compaction.ts";

const codex = await cliBinary(CODEX_PACKAGE, "codex");
const gemini = await cliBinary(GEMINI_CLI_PACKAGE, "gemini");
const claude = await cliBinary(CLAUDE_CODE_PACKAGE, "claude");
const qwen = await cliBinary(QWEN_CODE_PACKAGE, "qwen");
for (const client of [codex, gemini, claude, qwen]) {
  if ("skip" in client) console.log(`SKIPPED Tools card e2e: ${client.skip}`);
}

// Anything that is not loopback goes to a closed local port and fails at once.
const OFFLINE = {
  HTTPS_PROXY: "http://127.0.0.1:9",
  HTTP_PROXY: "http://127.0.0.1:9",
  NO_PROXY: "127.0.0.1,localhost",
};

async function run(
  binary: string,
  args: string[],
  home: string,
  env: Record<string, string>,
  offline: Record<string, string> = OFFLINE,
  timeoutMs = 90_000,
) {
  const out = await new Deno.Command(binary, {
    args,
    cwd: home,
    clearEnv: true,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: home, ...offline, ...env },
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(timeoutMs),
  }).output();
  return {
    code: out.code,
    text: new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr),
  };
}

function cardFor(id: string, origin: string, model: string) {
  const card = toolCards({ origin, requireKey: false, model }).find((c) => c.id === id);
  if (!card?.snippet) throw new Error(`no ${id} card with a snippet`);
  return { card, snippet: card.snippet };
}

for (const websockets of [false, true]) {
  const how = websockets
    ? "with its optional supports_websockets line, over the WebSocket"
    : "as printed, over HTTP";
  Deno.test({
    name:
      `the Codex CLI card's config.toml, ${how}, runs codex exec with a remote compaction through the gateway`,
    ignore: "skip" in codex,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      if ("skip" in codex) return;
      // A chat upstream: the gateway writes the compaction, so a remote compaction is visible upstream.
      await using mock = { ...(await startAgentUpstream()), [Symbol.asyncDispose]: () => mock.close() };
      const gw = await startTestGateway(
        `providers:\n  - id: up-1\n    prefix: up\n    api_type: chat_compat\n    base_url: ${mock.url}/v1\n` +
          `    api_key: upstream-key\n    models: [agent]\n`,
      );
      const { card, snippet } = cardFor("codex-cli", gw.url, "up/agent");
      const home = await Deno.makeTempDir({ prefix: "gateway-card-codex-" });
      try {
        await Deno.mkdir(join(home, ".codex"));
        // The card as printed. A low auto-compact limit (a top-level key, so it goes first) makes one
        // tool turn compact; the optional WebSocket line belongs to the provider table the card ends with.
        const config = "model_auto_compact_token_limit = 1000\n" + snippet.content +
          (websockets ? "supports_websockets = true\n" : "");
        await Deno.writeTextFile(join(home, ".codex", "config.toml"), config);
        const served = watchRequests(gw);
        const env = Object.fromEntries(card.env.map((e) => [e.name, e.value]));
        const result = await run(
          (codex as { path: string }).path,
          ["exec", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", "say hi"],
          home,
          { ...env, CODEX_HOME: join(home, ".codex") },
          OFFLINE,
          60_000,
        );
        assertEquals(result.code, 0, result.text);
        assertStringIncludes(result.text, "ALL DONE");
        // What the card's notes promise: Codex compacted remotely (it sent the gateway a compaction
        // trigger; under another provider name Codex compacts locally and never asks), over the transport
        // chosen. The gateway's summary call is part of that one request, not a request of its own.
        const transport = websockets ? "websocket" : "http";
        assertEquals(served.map((r) => `${r.kind}/${r.transport}`), [
          `turn/${transport}`,
          `trigger/${transport}`,
          `turn/${transport}`,
        ]);
        assertStringIncludes(JSON.stringify(mock.requests.at(-1)!.body), SUMMARY_HEADING);
      } finally {
        await gw.stop();
        await Deno.remove(home, { recursive: true });
      }
    },
  });
}

Deno.test({
  name: "the Gemini CLI card's settings file and environment, as printed, run gemini -p through the gateway",
  ignore: "skip" in gemini,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    if ("skip" in gemini) return;
    await using e2e = await startE2E({ agent: textAnswer("GEMINI CARD WORKS") });
    const { card, snippet } = cardFor("gemini-cli", e2e.url, "up_generate/agent");
    const home = await Deno.makeTempDir({ prefix: "gateway-card-gemini-" });
    try {
      await Deno.mkdir(join(home, ".gemini"));
      await Deno.writeTextFile(join(home, ".gemini", "settings.json"), snippet.content);
      const env = Object.fromEntries(card.env.map((e) => [e.name, e.value]));
      const result = await run((gemini as { path: string }).path, ["-p", "say hi"], home, env);
      assertEquals(result.code, 0, result.text);
      assertStringIncludes(result.text, "GEMINI CARD WORKS");
      assertEquals(e2e.lastUpstreamFormat(), "generate_content");
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  },
});

Deno.test({
  name: "the Claude Code card's settings.json, as printed, runs claude -p through the gateway",
  ignore: "skip" in claude,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    if ("skip" in claude) return;
    await using e2e = await startE2E({ agent: textAnswer("CLAUDE CARD WORKS") });
    const { snippet } = cardFor("claude-code", e2e.url, "up_chat/agent");
    const home = await Deno.makeTempDir({ prefix: "gateway-card-claude-" });
    try {
      await Deno.mkdir(join(home, ".claude"));
      await Deno.writeTextFile(join(home, ".claude", "settings.json"), snippet.content);
      const result = await run(claude.path, ["-p", "say hi"], home, {
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      });
      assertEquals(result.code, 0, result.text);
      assertStringIncludes(result.text, "CLAUDE CARD WORKS");
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  },
});

for (
  const [mode, prefix] of [["openai", "up_chat"], ["anthropic", "up_messages"], ["gemini", "up_generate"]]
) {
  Deno.test({
    name:
      `the Qwen Code card's settings.json, as printed, runs qwen -p through the gateway in its ${mode} mode`,
    ignore: "skip" in qwen,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      if ("skip" in qwen) return;
      await using e2e = await startE2E({ agent: textAnswer(`QWEN ${mode} WORKS`) });
      // In front of the gateway: records which endpoint Qwen Code called.
      const recorder = startPathRecorder(e2e.url);
      const { card, snippet } = cardFor("qwen-code", recorder.url, `${prefix}/agent`);
      const settings = JSON.parse(snippet.content);
      // The card's note: selectedType picks the mode for non-interactive runs. With HTTPS_PROXY set, Qwen
      // Code's calls to the loopback gateway failed here, so instead of the offline proxy its usage
      // statistics and telemetry are switched off.
      settings.security.auth.selectedType = mode;
      settings.privacy = { usageStatisticsEnabled: false };
      settings.telemetry = { enabled: false };
      const home = await Deno.makeTempDir({ prefix: "gateway-card-qwen-" });
      try {
        await Deno.mkdir(join(home, ".qwen"));
        await Deno.writeTextFile(join(home, ".qwen", "settings.json"), JSON.stringify(settings, null, 2));
        const env = Object.fromEntries(card.env.map((e) => [e.name, e.value]));
        const result = await run(qwen.path, ["-p", "say hi"], home, env, {});
        assertEquals(result.code, 0, result.text);
        assertStringIncludes(result.text, `QWEN ${mode} WORKS`);
        // Every call went to the surface of the mode under test (the upstream format alone would not
        // show it: the model's prefix picks the upstream whatever surface was called).
        const expected = {
          openai: "POST /v1/chat/completions",
          anthropic: "POST /v1/messages",
          gemini: `POST /v1beta/models/${prefix}/agent:streamGenerateContent`,
        }[mode];
        assert(recorder.seen.length > 0, "Qwen Code called the gateway");
        assertEquals([...new Set(recorder.seen)], [expected]);
        assertEquals(
          e2e.lastUpstreamFormat(),
          { openai: "chat_completions", anthropic: "messages", gemini: "generate_content" }[mode],
        );
      } finally {
        await recorder.close();
        await Deno.remove(home, { recursive: true });
      }
    },
  });
}
