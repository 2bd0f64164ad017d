import { assert, assertEquals } from "../helpers/assert.ts";
import { openDashboard, skipReason } from "./harness.ts";
import { waitFor } from "../helpers/wait.ts";

const ignore = skipReason();
if (ignore) console.log(ignore);
const options = { ignore: ignore !== "", sanitizeOps: false, sanitizeResources: false };

/** Per card: which base URL form the client needs, and how the gateway model id must be written. */
const EXPECTED: Readonly<Record<string, { url: "v1" | "root"; model: (id: string) => string }>> = {
  "claude-code": { url: "root", model: (id) => `"ANTHROPIC_MODEL": "${id}"` },
  "codex-cli": { url: "v1", model: (id) => `model = "${id}"` },
  "gemini-cli": { url: "root", model: (id) => `GEMINI_MODEL=${id}` },
  "qwen-code": { url: "v1", model: (id) => `"name": "${id}"` },
  "opencode": { url: "v1", model: (id) => `"model": "gateway/${id}"` },
  "aider": { url: "v1", model: (id) => `model: openai/${id}` },
  "cline": { url: "v1", model: (id) => `Model ID: ${id}` },
  "continue": { url: "v1", model: (id) => `model: ${id}` },
  "cursor": { url: "v1", model: (id) => `Custom model: ${id}` },
  "openai-sdk": { url: "v1", model: (id) => `model: "${id}"` },
  "anthropic-sdk": { url: "root", model: (id) => `model: "${id}"` },
  "genai-sdk": { url: "root", model: (id) => `model: "${id}"` },
  "ollama-sdk": { url: "root", model: (id) => `model: "${id}"` },
  "curl": { url: "v1", model: (id) => `"model": "${id}"` },
};

Deno.test({
  ...options,
  name:
    "Tools: every card's copy buttons give a setup with the right base URL form, key and model name format",
  fn: async () => {
    await using d = await openDashboard();
    await d.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: d.gw.url });
    await d.signIn("/dashboard/ui/tools");
    const page = d.page;
    await page.locator("gw-tools-screen [data-tool]").first().waitFor();
    const state = await (await fetch(`${d.gw.url}/dashboard/api/v2/state/tools`, {
      headers: { authorization: `Bearer ${d.key}` },
    })).json();
    const tools = state.data as {
      base_url: string;
      key_placeholder: string;
      example_model: string;
      require_api_key: boolean;
    };
    const origin = tools.base_url;
    const ids = await page.locator("gw-tools-screen [data-tool]").evaluateAll((cards) =>
      cards.map((card) => card.getAttribute("data-tool") ?? "")
    );
    assertEquals([...ids].sort(), Object.keys(EXPECTED).sort(), "one card per client");
    for (const id of ids) {
      const buttons = page.locator(`gw-tools-screen [data-tool='${id}'] gw-copy-button button`);
      const copied: string[] = [];
      for (let i = 0; i < await buttons.count(); i++) {
        await buttons.nth(i).click();
        copied.push(await page.evaluate(() => navigator.clipboard.readText()));
      }
      const text = copied.join("\n");
      assert(copied.length >= 1, `${id}: nothing to copy`);
      const expected = EXPECTED[id];
      if (expected.url === "v1") assert(text.includes(`${origin}/v1`), `${id} needs ${origin}/v1:\n${text}`);
      else {
        assert(
          new RegExp(`${origin.replaceAll(".", "\\.")}(?!/v1)`).test(text),
          `${id} needs the root:\n${text}`,
        );
        assert(!text.includes(`${origin}/v1`), `${id} must not use /v1:\n${text}`);
      }
      // A key: the placeholder (or a stand-in the client accepts); Ollama clients send none unless required.
      assert(
        text.includes(tools.key_placeholder) || text.includes("any text") ||
          text.includes("GATEWAY_API_KEY") ||
          (id === "ollama-sdk" && !tools.require_api_key),
        `${id} names no key:\n${text}`,
      );
      const model = expected.model(tools.example_model);
      assert(text.includes(model), `${id} should name the model as ${model}:\n${text}`);
    }
    await d.shot("tools.cards");
    assertEquals(d.consoleErrors, []);
  },
});

Deno.test({
  ...options,
  name: "Tools: the pasted key and the picked model fill every card, the Continue card included",
  fn: async () => {
    await using d = await openDashboard();
    // Keys required: the cards carry the key placeholder the pasted key replaces.
    const required = await fetch(`${d.gw.url}/dashboard/api/settings`, {
      method: "POST",
      headers: { authorization: `Bearer ${d.key}`, "content-type": "application/json" },
      body: JSON.stringify({ server_require_api_key: true }),
    });
    assertEquals(required.status, 200, await required.text());
    await d.signIn("/dashboard/ui/tools");
    const page = d.page;
    const screen = page.locator("gw-tools-screen");
    await screen.locator("[data-tool='continue']").waitFor();
    const continueText = () => screen.locator("[data-tool='continue'] pre").innerText();
    assert((await continueText()).includes(`apiBase: ${d.gw.url}/v1`), await continueText());
    assert((await continueText()).includes("model: p/m1"), "the example model first");

    await screen.locator("select[name=tool_model]").selectOption("best");
    await waitFor(async () => (await continueText()).includes("model: best"), {
      what: "the combo in Continue",
    });
    assert(
      (await screen.locator("[data-tool='codex-cli'] pre").allInnerTexts()).join("\n").includes(
        'model = "best"',
      ),
    );
    assert(!(await continueText()).includes("p/m1"), "no card keeps the example model");

    const keyField = screen.locator("input[name=tool_key]");
    await keyField.fill("sk-gateway-pasted-123");
    await waitFor(async () => (await continueText()).includes("apiKey: sk-gateway-pasted-123"), {
      what: "the key in Continue",
    });
    const claude = (await screen.locator("[data-tool='claude-code'] pre").allInnerTexts()).join("\n");
    assert(claude.includes("ANTHROPIC_AUTH_TOKEN=sk-gateway-pasted-123"), claude);
    assertEquals(d.consoleErrors, []);
  },
});
