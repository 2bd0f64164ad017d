/** Azure OpenAI providers through the dashboard API: the preset, Fetch Models and Test on the unsaved form, save. */
import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { body, setupDashboard } from "./dashboard_helpers.ts";

const KEY = "azure-key-abcdef0123456789";

/** A loopback Azure resource: wants the key in `api-key`, records path and query of every request. */
function azureResource() {
  const seen: string[] = [];
  const instance = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const url = new URL(request.url);
    seen.push(`${url.pathname}${url.search}`);
    if (request.headers.get("api-key") !== KEY || request.headers.has("authorization")) {
      return Response.json({ error: { code: "401", message: "Access denied: invalid key" } }, {
        status: 401,
      });
    }
    if (url.pathname.endsWith("/models")) {
      return Response.json({ data: [{ id: "gpt-4o" }, { id: "gpt-4.1" }] });
    }
    const sent = await request.json();
    return Response.json({
      id: "c1",
      object: "chat.completion",
      model: sent.model,
      choices: [{ index: 0, message: { role: "assistant", content: "p" }, finish_reason: "length" }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    });
  });
  return {
    url: `http://127.0.0.1:${instance.addr.port}`,
    seen,
    [Symbol.asyncDispose]: () => instance.shutdown(),
  };
}

type Probe = { ok: boolean; status: number; message: string };

Deno.test("Azure preset: offered by vendor name with the Azure kind and the resource endpoint's shape", async () => {
  await using t = await setupDashboard();
  const state = await t.json("/dashboard/api/v2/state/providers");
  const section = state.body.data as {
    vendor_presets: { id: string; vendor: string; api_type: string; base_url: string; auth: string }[];
  };
  const azure = section.vendor_presets.find((p) => p.id === "azure_openai");
  assertEquals(azure?.vendor, "Azure OpenAI");
  assertEquals(azure?.api_type, "azure_openai");
  assertEquals(azure?.auth, "api_key");
  assertStringIncludes(azure!.base_url, ".openai.azure.com");
  assertEquals(section.vendor_presets.find((p) => p.id === "azure_responses")?.api_type, "azure_responses");
});

Deno.test("Azure draft: Fetch Models and Test use the API version, the deployment and the api-key header", async () => {
  await using t = await setupDashboard();
  await using az = azureResource();
  const draft = {
    api_type: "azure_openai",
    base_url: az.url,
    api_key: KEY,
    azure_api_version: "2024-10-21",
    azure_deployments: "gpt-4o=prod-4o",
  };
  const listed = await t.json("/dashboard/api/providers/fetch-models", body("POST", draft));
  assertEquals(listed.status, 200);
  assertEquals((listed.body as { models: string[] }).models, ["gpt-4.1", "gpt-4o"]);
  const probed = await t.json(
    "/dashboard/api/providers/test-draft",
    body("POST", { ...draft, model: "gpt-4o" }),
  );
  assertEquals((probed.body as unknown as Probe).ok, true);
  assertEquals(az.seen, [
    "/openai/models?api-version=2024-10-21",
    "/openai/deployments/prod-4o/chat/completions?api-version=2024-10-21",
  ]);
  // The v1 API (the default): no version in the query, the deployment in the body.
  const v1 = await t.json(
    "/dashboard/api/providers/test-draft",
    body("POST", { api_type: "azure_openai", base_url: az.url, api_key: KEY, model: "gpt-4o" }),
  );
  assertEquals((v1.body as unknown as Probe).ok, true);
  assertEquals(az.seen.at(-1), "/openai/v1/chat/completions");
});

Deno.test("Azure provider: saved with its version and deployments, shown in the list, edited, cleared by a change of kind", async () => {
  await using t = await setupDashboard();
  const created = await t.json(
    "/dashboard/api/providers",
    body("POST", {
      id: "az",
      prefix: "az",
      api_type: "azure_openai",
      base_url: "https://contoso.openai.azure.com",
      api_key: KEY,
      models: ["gpt-4o"],
      azure_deployments: { "gpt-4o": "contoso-4o" },
    }),
  );
  assertEquals(created.status, 201);
  const view = (created.body as { provider: { azure: unknown } }).provider.azure;
  assertEquals(view, { api_version: "v1", deployments: { "gpt-4o": "contoso-4o" } });
  const edited = await t.json(
    "/dashboard/api/providers/az",
    body("PUT", { azure_api_version: "2025-04-01-preview", azure_deployments: "gpt-4o=a\ngpt-4.1=b" }),
  );
  assertEquals((edited.body as { provider: { azure: unknown } }).provider.azure, {
    api_version: "2025-04-01-preview",
    deployments: { "gpt-4o": "a", "gpt-4.1": "b" },
  });
  const stored = t.gw.runtime.control.store.providers.get("az")!;
  assertEquals(stored.azure, {
    apiVersion: "2025-04-01-preview",
    deployments: { "gpt-4o": "a", "gpt-4.1": "b" },
  });
  const rekinded = await t.json("/dashboard/api/providers/az", body("PUT", { api_type: "chat_compat" }));
  assertEquals((rekinded.body as { provider: { azure: unknown } }).provider.azure, null);
});

Deno.test("Azure fields: bad input is a 400 naming the field, and other kinds refuse them", async () => {
  await using t = await setupDashboard();
  const base = { id: "x", prefix: "x", api_type: "azure_openai", base_url: "https://x.openai.azure.com" };
  const cases: [unknown, string][] = [
    [{ ...base, azure_api_version: "latest" }, "azure_api_version"],
    [{ ...base, azure_deployments: "gpt-4o" }, "azure_deployments"],
    [{ ...base, azure_deployments: { "gpt-4o": "has space" } }, "azure_deployments"],
    [{ ...base, azure_deployments: 7 }, "azure_deployments"],
    [{ ...base, api_type: "chat_compat", azure_api_version: "v1" }, "azure_api_version"],
    [{ ...base, api_type: "chat_compat", azure_deployments: "a=b" }, "azure_deployments"],
  ];
  for (const [input, field] of cases) {
    const answer = await t.json("/dashboard/api/providers", body("POST", input));
    assertEquals(answer.status, 400, JSON.stringify(input));
    assertStringIncludes(JSON.stringify(answer.body), field, JSON.stringify(input));
  }
});
