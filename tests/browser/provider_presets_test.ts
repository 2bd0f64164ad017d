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

/** A loopback Azure resource: answers only with the key in `api-key`, records path and query. */
function azureResource(key: string) {
  const seen: string[] = [];
  const instance = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const url = new URL(request.url);
    seen.push(`${request.method} ${url.pathname}${url.search}`);
    if (request.headers.get("api-key") !== key) {
      return Response.json({ error: { code: "401", message: "Access denied" } }, { status: 401 });
    }
    if (url.pathname.endsWith("/models")) return Response.json({ data: [{ id: "gpt-4o" }] });
    return Response.json({
      id: "c1",
      object: "chat.completion",
      model: "gpt-4o",
      choices: [{ index: 0, message: { role: "assistant", content: "p" }, finish_reason: "length" }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    });
  });
  return { url: `http://127.0.0.1:${instance.addr.port}`, seen, close: () => instance.shutdown() };
}

Deno.test({
  ...options,
  name:
    "providers form: the Azure OpenAI preset asks for the API version and deployments, tests them, and saves them",
  fn: async () => {
    await using d = await openDashboard();
    const resource = azureResource("az-key-0123456789");
    try {
      const dialog = await openProviderForm(d);
      await dialog.locator("select[name=vendor]").selectOption("azure_openai");
      assertEquals(await dialog.locator("select[name=api_type]").inputValue(), "azure_openai");
      assertStringIncludes(await dialog.locator("input[name=base_url]").inputValue(), ".openai.azure.com");
      assertEquals(await dialog.locator("input[name=azure_api_version]").inputValue(), "v1");

      // A bad version is named beside its field and clears once fixed.
      await dialog.locator("input[name=azure_api_version]").fill("latest");
      await dialog.locator("button[type=submit]").click();
      const versionError = dialog.locator("gw-field[label='API version'] .error");
      await versionError.waitFor();
      await dialog.locator("input[name=azure_api_version]").fill("2024-10-21");
      await versionError.waitFor({ state: "detached" });

      await dialog.locator("input[name=base_url]").fill(resource.url);
      await dialog.locator("input[name=api_key]").fill("az-key-0123456789");
      await dialog.locator("textarea[name=azure_deployments]").fill("gpt-4o=prod-4o");
      await dialog.locator("textarea[name=models]").fill("gpt-4o");
      await dialog.locator("button", { hasText: "Fetch models from upstream" }).click();
      await dialog.locator("button", { hasText: "Add all 1" }).waitFor();
      await dialog.locator("button[data-action=test-draft]").click();
      const outcome = dialog.locator("[data-draft-test]", { hasText: /Connected|Failed/ });
      await outcome.waitFor();
      assertStringIncludes(await outcome.innerText(), "Connected");
      assertEquals(resource.seen, [
        "GET /openai/models?api-version=2024-10-21",
        "POST /openai/deployments/prod-4o/chat/completions?api-version=2024-10-21",
      ]);

      await dialog.locator("button[type=submit]").click();
      await d.page.locator("gw-providers-screen [data-provider='azure_openai']").waitFor();
      await waitFor(() => d.gw.runtime.control.store.providers.get("azure_openai") !== undefined, {
        what: "the provider stored",
      });
      const stored = d.gw.runtime.control.store.providers.get("azure_openai")!;
      assertEquals(stored.azure, { apiVersion: "2024-10-21", deployments: { "gpt-4o": "prod-4o" } });
      assertEquals(stored.baseUrl, resource.url);
      assertEquals(d.consoleErrors, []);
    } finally {
      await resource.close();
    }
  },
});
