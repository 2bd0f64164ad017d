/**
 * The Tools screen's printed setups, fed as printed to the real clients from npm: Codex CLI's
 * config.toml and Gemini CLI's settings file and environment must each finish a non-interactive run
 * through the gateway. Skips (saying why) only when npm cannot install a client.
 */
import { join } from "node:path";
import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import {
  CLAUDE_CODE_PACKAGE,
  cliBinary,
  CODEX_PACKAGE,
  GEMINI_CLI_PACKAGE,
  QWEN_CODE_PACKAGE,
} from "../helpers/cli_clients.ts";
import { toolCards } from "../../src/dashboard/state/tool_cards.ts";
import { startE2E, textAnswer } from "./harness.ts";

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
) {
  const out = await new Deno.Command(binary, {
    args,
    cwd: home,
    clearEnv: true,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: home, ...offline, ...env },
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(90_000),
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

Deno.test({
  name: "the Codex CLI card's config.toml, as printed, runs codex exec through the gateway",
  ignore: "skip" in codex,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    if ("skip" in codex) return;
    await using e2e = await startE2E({ agent: textAnswer("CODEX CARD WORKS") });
    const { card, snippet } = cardFor("codex-cli", e2e.url, "up_responses/agent");
    const home = await Deno.makeTempDir({ prefix: "gateway-card-codex-" });
    try {
      await Deno.mkdir(join(home, ".codex"));
      await Deno.writeTextFile(join(home, ".codex", "config.toml"), snippet.content);
      const env = Object.fromEntries(card.env.map((e) => [e.name, e.value]));
      const result = await run(
        (codex as { path: string }).path,
        ["exec", "--skip-git-repo-check", "say hi"],
        home,
        {
          ...env,
          CODEX_HOME: join(home, ".codex"),
        },
      );
      assertEquals(result.code, 0, result.text);
      assertStringIncludes(result.text, "CODEX CARD WORKS");
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  },
});

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
      const { card, snippet } = cardFor("qwen-code", e2e.url, `${prefix}/agent`);
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
        assertEquals(
          e2e.lastUpstreamFormat(),
          { openai: "chat_completions", anthropic: "messages", gemini: "generate_content" }[mode],
        );
      } finally {
        await Deno.remove(home, { recursive: true });
      }
    },
  });
}
