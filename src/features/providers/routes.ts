import { Hono } from "hono";
import { z } from "zod";
import type { ProviderConfig } from "../../config/mod.ts";
import type { DashboardContext } from "../../dashboard/context.ts";
import {
  type FetchModelsResult,
  fetchUpstreamModels,
  modelListProbe,
  probeProvider,
  type ProbeResult,
} from "./probe.ts";
import { hasStoredCredential, UNSAVED_PROVIDER_ID } from "../../executors/oauth/mod.ts";
import { providerView } from "./state.ts";
import { invalidField } from "../field_error.ts";
import { azureHints, azureSettings, type FetchTarget, withCallHints } from "./service.ts";
import { GatewayError } from "../../model/mod.ts";
import type { AppEnv } from "../../http/env.ts";
import { answer, readBody } from "../../dashboard/validation.ts";
import { createSchema, draftTestSchema, fetchSchema, model, updateSchema } from "./input.ts";

/** The stand-in provider of a Fetch Models for a subscription credential that is not stored yet. */
const UNSAVED: ProviderConfig = {
  id: UNSAVED_PROVIDER_ID,
  prefix: "unsaved",
  apiType: "chat_compat",
  baseUrl: "",
  apiKey: "",
  models: [],
  enabled: false,
};

/**
 * Providers: create, update (blank api_key keeps the stored one), enable/disable, delete, Fetch Models and
 * Test Connection. Changes go through the provider service, which reloads the gateway.
 */
export function providersRoutes(ctx: DashboardContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const providers = ctx.manage.providers;
  const view = (provider: ProviderConfig) => providerView(provider, ctx);

  app.post("/dashboard/api/providers/fetch-models", async (c) => {
    const input = await readBody(c, "POST /providers/fetch-models", fetchSchema);
    const target = providers.fetchTarget({
      providerId: input.provider_id,
      apiType: input.api_type,
      baseUrl: input.base_url,
      apiKey: input.api_key,
      azure: azureHints(input),
    });
    const result = await listModels(target);
    if (!result.ok) {
      const message = ctx.state.redactor.redact(result.message);
      throw new GatewayError(502, "upstream", `Fetching models from ${result.url} failed: ${message}`);
    }
    return answer("POST /providers/fetch-models", { ok: true, models: result.models, url: result.url });
  });

  // Test Connection on the form's unsaved values: nothing is stored, and the key rules of Fetch Models apply
  // (a stored key is only lent to its own base URL).
  app.post("/dashboard/api/providers/test-draft", async (c) => {
    const input = await readBody(c, "POST /providers/test-draft", draftTestSchema);
    const target = providers.fetchTarget({
      providerId: input.provider_id,
      apiType: input.api_type,
      baseUrl: input.base_url,
      apiKey: input.api_key,
      azure: azureHints(input),
    });
    if (hasStoredCredential(target.apiType) && !target.stored) {
      throw invalidField("api_key", "of a subscription kind is a sign-in: save the provider, then Connect");
    }
    const draft: ProviderConfig = target.stored ?? {
      ...UNSAVED,
      apiType: target.apiType,
      baseUrl: target.baseUrl,
      apiKey: target.apiKey,
      ...(target.azure ? { azure: target.azure } : {}),
    };
    return answer("POST /providers/test-draft", await testConnection(draft, input.model));
  });

  app.post("/dashboard/api/providers", async (c) => {
    const input = await readBody(c, "POST /providers", createSchema);
    const created = providers.create({
      id: input.id,
      prefix: input.prefix,
      apiType: input.api_type,
      baseUrl: input.base_url,
      apiKey: input.api_key,
      models: input.models,
      enabled: input.enabled,
      oauth: withCallHints(input.api_type, undefined, input),
      azure: azureSettings(input.api_type, undefined, azureHints(input)),
      ...(input.kinds === undefined || Object.keys(input.kinds).length === 0 ? {} : { kinds: input.kinds }),
    });
    return answer("POST /providers", { ok: true, provider: view(created) }, 201);
  });

  app.put("/dashboard/api/providers/:id", async (c) => {
    const id = c.req.param("id");
    const current = providers.get(id);
    const input = await readBody(c, "PUT /providers/:id", updateSchema);
    const hinted = input.region !== undefined || input.project !== undefined;
    const updated = providers.update(id, {
      prefix: input.prefix,
      apiType: input.api_type,
      baseUrl: input.base_url,
      apiKey: input.api_key,
      models: input.models,
      enabled: input.enabled,
      kinds: input.kinds,
      oauth: hinted ? withCallHints(input.api_type ?? current.apiType, current.oauth, input) : undefined,
      azure: azureSettings(input.api_type ?? current.apiType, current.azure, azureHints(input)),
    });
    return answer("PUT /providers/:id", { ok: true, provider: view(updated) });
  });

  for (const [action, enabled] of [["enable", true], ["disable", false]] as const) {
    app.post(`/dashboard/api/providers/:id/${action}`, (c) => {
      const provider = providers.update(c.req.param("id"), { enabled });
      return answer(`POST /providers/:id/${action}`, { ok: true, provider: view(provider) });
    });
  }

  app.delete("/dashboard/api/providers/:id", (c) => {
    providers.delete(c.req.param("id"));
    return answer("DELETE /providers/:id", { ok: true });
  });

  app.post("/dashboard/api/providers/:id/test", async (c) => {
    const provider = providers.get(c.req.param("id"));
    const body = await readBody(c, "POST /providers/:id/test", z.object({ model: model.optional() }));
    return answer(
      "POST /providers/:id/test",
      await testConnection(provider, body.model ?? provider.models[0]),
    );
  });
  return app;

  /** The model list of a stored provider or an unsaved draft; never throws. */
  function listModels(target: FetchTarget): Promise<FetchModelsResult> {
    return hasStoredCredential(target.apiType)
      // An unsaved subscription credential is used as is: a refresh would spend a token nothing stores.
      ? ctx.subscriptions.fetchModels(
        target.stored ??
          { ...UNSAVED, apiType: target.apiType, baseUrl: target.baseUrl, apiKey: target.apiKey },
      )
      : fetchUpstreamModels(target);
  }

  /**
   * Test Connection: a one-token request to `model`, or, with no model to ask, the model list (which still
   * proves the URL and the key). Upstream error text can repeat the key it was sent; it is shown without.
   */
  async function testConnection(provider: ProviderConfig, model: string | undefined): Promise<ProbeResult> {
    const probed = model !== undefined
      ? hasStoredCredential(provider.apiType)
        ? await ctx.subscriptions.probe(provider, model)
        : await probeProvider(provider, model, ctx.now)
      : await modelListProbe(() => listModels({ ...provider, stored: provider }), ctx.now);
    return { ...probed, message: ctx.state.redactor.redact(probed.message) };
  }
}
