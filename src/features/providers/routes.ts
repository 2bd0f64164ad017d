import { Hono } from "hono";
import { z } from "zod";
import type { ProviderConfig } from "../../config/mod.ts";
import type { DashboardContext } from "../../dashboard/context.ts";
import { fetchUpstreamModels, probeProvider } from "./probe.ts";
import { hasStoredCredential, UNSAVED_PROVIDER_ID } from "../../executors/oauth/mod.ts";
import { providerView } from "./state.ts";
import { invalidField } from "../field_error.ts";
import { withCallHints } from "./service.ts";
import { GatewayError } from "../../model/mod.ts";
import type { AppEnv } from "../../http/env.ts";
import { answer, readBody } from "../../dashboard/validation.ts";
import { createSchema, fetchSchema, updateSchema } from "./input.ts";

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
    });
    const result = hasStoredCredential(target.apiType)
      // An unsaved subscription credential is used as is: a refresh would spend a token nothing stores.
      ? await ctx.subscriptions.fetchModels(
        target.stored ??
          { ...UNSAVED, apiType: target.apiType, baseUrl: target.baseUrl, apiKey: target.apiKey },
      )
      : await fetchUpstreamModels({
        apiType: target.apiType,
        baseUrl: target.baseUrl,
        apiKey: target.apiKey,
      });
    if (!result.ok) {
      const message = ctx.state.redactor.redact(result.message);
      throw new GatewayError(502, "upstream", `Fetching models from ${result.url} failed: ${message}`);
    }
    return answer("POST /providers/fetch-models", { ok: true, models: result.models, url: result.url });
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
      oauth: hinted ? withCallHints(input.api_type ?? current.apiType, current.oauth, input) : undefined,
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
    const body = await readBody(
      c,
      "POST /providers/:id/test",
      z.object({ model: z.string().trim().min(1).optional() }),
    );
    const model = body.model ?? provider.models[0];
    if (!model) throw invalidField("model", "is required: the provider lists no models");
    // Upstream error text can repeat the key it was sent; the dashboard shows it without.
    const probed = hasStoredCredential(provider.apiType)
      ? await ctx.subscriptions.probe(provider, model)
      : await probeProvider(provider, model, ctx.now);
    return answer("POST /providers/:id/test", {
      ...probed,
      message: ctx.state.redactor.redact(probed.message),
    });
  });
  return app;
}
