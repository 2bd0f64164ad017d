import { Hono } from "hono";
import { z } from "zod";
import { API_TYPES, type ProviderConfig } from "../../config/mod.ts";
import type { DashboardContext } from "../../dashboard/context.ts";
import { fetchUpstreamModels, probeProvider } from "../../dashboard/provider_probe.ts";
import { providerView } from "../../dashboard/views.ts";
import { GatewayError } from "../../model/mod.ts";
import type { AppEnv } from "../env.ts";
import { fieldError, jsonObject, notFound, parseInput, stringList } from "./validation.ts";

const id = z.string({ error: "must be a string" }).trim().min(1, "is required").max(100, "is too long")
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/, "letters, digits, '_', '.', ':' or '-' only");
const prefix = z.string({ error: "must be a string" }).trim().min(1, "is required").max(100, "is too long")
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, "letters, digits, '_', '.' or '-' only (no '/')");
const apiType = z.enum(API_TYPES, { error: `must be one of ${API_TYPES.join(", ")}` });
const baseUrl = z.string({ error: "must be a string" }).trim().refine((v) => {
  try {
    const url = new URL(v);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}, "must be an http(s) URL").transform((v) => v.replace(/\/+$/, ""));
const apiKey = z.string({ error: "must be a string" }).max(20_000, "is too long");
const models = stringList.pipe(z.array(z.string().regex(/^\S+$/, "model names must not contain spaces")));
const enabled = z.boolean({ error: "must be true or false" });

const createSchema = z.object({
  id,
  prefix,
  api_type: apiType,
  base_url: baseUrl,
  api_key: apiKey.default(""),
  models: models.default([]),
  enabled: enabled.default(true),
});
const updateSchema = z.object({
  prefix: prefix.optional(),
  api_type: apiType.optional(),
  base_url: baseUrl.optional(),
  api_key: apiKey.optional(),
  models: models.optional(),
  enabled: enabled.optional(),
});
const fetchSchema = z.object({
  provider_id: z.string().optional(),
  api_type: apiType.optional(),
  base_url: baseUrl.optional(),
  api_key: apiKey.optional(),
});

/**
 * Providers: create, update (blank api_key keeps the stored one), enable/disable, delete, Fetch Models and
 * Test Connection. Each change reloads the control plane, which rebuilds routing and closes the HTTP
 * clients of providers that are gone or disabled.
 */
export function providersRoutes(ctx: DashboardContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const { runtime } = ctx;
  const { control } = runtime;
  const find = (providerId: string): ProviderConfig => {
    const provider = control.providers.find((p) => p.id === providerId);
    if (!provider) throw notFound(`Provider "${providerId}" does not exist`);
    return provider;
  };
  const save = (provider: ProviderConfig) => {
    control.store.providers.upsert(provider, runtime.now());
    control.reload();
    return { ok: true, provider: providerView(find(provider.id), runtime) };
  };

  app.post("/dashboard/api/providers/fetch-models", async (c) => {
    const input = parseInput(fetchSchema, await jsonObject(c));
    const stored = input.provider_id ? control.providers.find((p) => p.id === input.provider_id) : undefined;
    if (input.provider_id && !stored) throw notFound(`Provider "${input.provider_id}" does not exist`);
    const target = {
      apiType: input.api_type ?? stored?.apiType,
      baseUrl: input.base_url ?? stored?.baseUrl,
      apiKey: input.api_key?.trim() ? input.api_key.trim() : stored?.apiKey ?? "",
    };
    if (!target.apiType) throw fieldError("api_type", "is required (or give provider_id)");
    if (!target.baseUrl) throw fieldError("base_url", "is required (or give provider_id)");
    const result = await fetchUpstreamModels({
      apiType: target.apiType,
      baseUrl: target.baseUrl,
      apiKey: target.apiKey,
    });
    if (!result.ok) {
      throw new GatewayError(502, "upstream", `Fetching models from ${result.url} failed: ${result.message}`);
    }
    return c.json({ ok: true, models: result.models, url: result.url });
  });

  app.post("/dashboard/api/providers", async (c) => {
    const input = parseInput(createSchema, await jsonObject(c));
    if (control.providers.some((p) => p.id === input.id)) {
      throw fieldError("id", `a provider with id "${input.id}" already exists`, 409);
    }
    if (control.combos.some((combo) => combo.name === input.prefix)) {
      throw fieldError("prefix", `"${input.prefix}" is already a combo name`);
    }
    const result = save({
      id: input.id,
      prefix: input.prefix,
      apiType: input.api_type,
      baseUrl: input.base_url,
      apiKey: input.api_key.trim(),
      models: input.models,
      enabled: input.enabled,
    });
    return c.json(result, 201);
  });

  app.put("/dashboard/api/providers/:id", async (c) => {
    const current = find(c.req.param("id"));
    const input = parseInput(updateSchema, await jsonObject(c));
    return c.json(save({
      ...current,
      prefix: input.prefix ?? current.prefix,
      apiType: input.api_type ?? current.apiType,
      baseUrl: input.base_url ?? current.baseUrl,
      apiKey: input.api_key?.trim() ? input.api_key.trim() : current.apiKey,
      models: input.models ?? current.models,
      enabled: input.enabled ?? current.enabled,
    }));
  });

  app.post(
    "/dashboard/api/providers/:id/enable",
    (c) => c.json(save({ ...find(c.req.param("id")), enabled: true })),
  );
  app.post(
    "/dashboard/api/providers/:id/disable",
    (c) => c.json(save({ ...find(c.req.param("id")), enabled: false })),
  );

  app.delete("/dashboard/api/providers/:id", (c) => {
    const provider = find(c.req.param("id"));
    control.store.providers.delete(provider.id);
    control.reload();
    return c.json({ ok: true });
  });

  app.post("/dashboard/api/providers/:id/test", async (c) => {
    const provider = find(c.req.param("id"));
    const body = parseInput(z.object({ model: z.string().trim().min(1).optional() }), await jsonObject(c));
    const model = body.model ?? provider.models[0];
    if (!model) throw fieldError("model", "is required: the provider lists no models");
    return c.json(await probeProvider(provider, model, runtime.now));
  });
  return app;
}
