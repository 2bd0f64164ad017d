/** Browser checks of the Add-provider form: vendor presets, Fetch Models and Test before saving, errors clearing. */
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { openDashboard, openProviderForm, skipReason } from "./harness.ts";
import { waitFor } from "../helpers/wait.ts";

const ignore = skipReason();
if (ignore) console.warn(ignore);
const options = { ignore: ignore !== "", sanitizeOps: false, sanitizeResources: false };

/** A loopback chat-compatible runner with two models and no key, recording what it is asked. */
function localRunner() {
  const seen: string[] = [];
  const instance = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const path = new URL(request.url).pathname;
    seen.push(`${request.method} ${path}`);
    if (path === "/v1/models") return Response.json({ data: [{ id: "llama-a" }, { id: "llama-b" }] });
    return Response.json({
      id: "c1",
      object: "chat.completion",
      model: "llama-a",
      choices: [{ index: 0, message: { role: "assistant", content: "p" }, finish_reason: "length" }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    });
  });
  return { url: `http://127.0.0.1:${instance.addr.port}/v1`, seen, close: () => instance.shutdown() };
}

Deno.test({
  ...options,
  name: "providers form: a vendor preset, then Fetch Models and Test on the unsaved form, then save",
  fn: async () => {
    await using d = await openDashboard();
    const runner = localRunner();
    try {
      const dialog = await openProviderForm(d);
      await dialog.locator("select[name=vendor]").selectOption("ollama");
      assertEquals(await dialog.locator("select[name=api_type]").inputValue(), "chat_compat");
      assertEquals(await dialog.locator("input[name=base_url]").inputValue(), "http://127.0.0.1:11434/v1");
      assertEquals(await dialog.locator("input[name=id]").inputValue(), "ollama");
      assertEquals(await dialog.locator("input[name=prefix]").inputValue(), "ollama");

      // A bad prefix is shown, and goes away as soon as the field is edited.
      await dialog.locator("input[name=prefix]").fill("bad/prefix");
      await dialog.locator("button[type=submit]").click();
      const prefixError = dialog.locator("gw-field[label='Prefix'] .error");
      await prefixError.waitFor();
      await dialog.locator("input[name=prefix]").fill("local");
      await prefixError.waitFor({ state: "detached" });

      await dialog.locator("input[name=base_url]").fill(runner.url);
      await dialog.locator("button", { hasText: "Fetch models from upstream" }).click();
      await dialog.locator("button", { hasText: "Add all 2" }).click();
      assertEquals(await dialog.locator("textarea[name=models]").inputValue(), "llama-a\nllama-b");
      await dialog.locator("button[data-action=test-draft]").click();
      const outcome = dialog.locator("[data-draft-test]", { hasText: /Connected|Failed/ });
      await outcome.waitFor();
      assertStringIncludes(await outcome.innerText(), "Connected");
      assertEquals(runner.seen, ["GET /v1/models", "POST /v1/chat/completions"]);
      assertEquals(d.gw.runtime.control.store.providers.get("ollama"), undefined, "nothing saved yet");

      await dialog.locator("button[type=submit]").click();
      await d.page.locator("gw-providers-screen [data-provider='ollama']").waitFor();
      await waitFor(() => d.gw.runtime.control.store.providers.get("ollama") !== undefined, {
        what: "the provider stored",
      });
      const stored = d.gw.runtime.control.store.providers.get("ollama")!;
      assertEquals([stored.prefix, stored.baseUrl, [...stored.models]], ["local", runner.url, [
        "llama-a",
        "llama-b",
      ]]);
      assertEquals(d.consoleErrors, []);
    } finally {
      await runner.close();
    }
  },
});

Deno.test({
  ...options,
  name: "providers form: a subscription vendor offers Connect instead of an API-key field",
  fn: async () => {
    await using d = await openDashboard();
    const dialog = await openProviderForm(d);
    await dialog.locator("select[name=vendor]").selectOption("codex");
    assertEquals(await dialog.locator("select[name=api_type]").inputValue(), "responses_oauth");
    assertStringIncludes(await dialog.locator("[data-sign-in]").innerText(), "Connect");
    assert(!(await dialog.locator("input[name=api_key]").isVisible()), "no key field in view");
    assertEquals(await dialog.locator("button[data-action=test-draft]").count(), 0);
    await dialog.locator("select[name=vendor]").selectOption("groq");
    assert(await dialog.locator("input[name=api_key]").isVisible(), "API-key vendors ask for the key");
    assertEquals(await dialog.locator("input[name=base_url]").inputValue(), "https://api.groq.com/openai/v1");
    assertEquals(d.consoleErrors, []);
  },
});
