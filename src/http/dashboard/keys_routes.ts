import { Hono } from "hono";
import { z } from "zod";
import type { DashboardContext } from "../../dashboard/context.ts";
import { keyView } from "../../dashboard/views.ts";
import { createKey, revokeKey, updateKey } from "../../gateway/keys_service.ts";
import type { AppEnv } from "../env.ts";
import { idParam, jsonObject, parseInput, privateJson, stringList, withField } from "./validation.ts";

const budgetField = z.number({ error: "must be a number greater than 0 (USD)" }).nullable().optional();

const createSchema = z.object({
  name: z.string({ error: "must be a string" }),
  can_login: z.boolean({ error: "must be true or false" }).default(true),
  allowed_models: stringList.default([]),
  daily_budget: budgetField,
});

const updateSchema = z.object({
  name: z.string({ error: "must be a string" }).optional(),
  can_login: z.boolean({ error: "must be true or false" }).optional(),
  allowed_models: stringList.optional(),
  daily_budget: budgetField,
});

/** Key management: create (plaintext once), update scopes and budget, revoke. */
export function keysRoutes(ctx: DashboardContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const { control } = ctx.runtime;
  const store = control.store;

  app.post("/dashboard/api/v2/keys", async (c) => {
    const input = parseInput(createSchema, await jsonObject(c));
    const created = withField(() =>
      createKey(store, {
        name: input.name,
        canLogin: input.can_login,
        allowedModels: input.allowed_models,
        dailyBudget: input.daily_budget ?? undefined,
      }, ctx.runtime.now())
    );
    control.reload();
    return privateJson({
      ok: true,
      key: keyView(created.record, control.budgets),
      plaintext: created.plaintext,
    }, 201);
  });

  app.post("/dashboard/api/keys/:id", async (c) => {
    const id = idParam(c.req.param("id"), "API key");
    const input = parseInput(updateSchema, await jsonObject(c));
    const updated = withField(() =>
      updateKey(store, id, {
        name: input.name,
        canLogin: input.can_login,
        allowedModels: input.allowed_models,
        dailyBudget: input.daily_budget,
      }, ctx.runtime.now())
    );
    if (!updated.canLogin) store.sessions.deleteForKey(id);
    control.reload();
    return c.json({ ok: true, key: keyView(updated, control.budgets) });
  });

  app.delete("/dashboard/api/keys/:id", (c) => {
    const id = idParam(c.req.param("id"), "API key");
    revokeKey(store, id, ctx.runtime.now());
    store.sessions.deleteForKey(id);
    control.reload();
    const key = control.keys.find((k) => k.id === id)!;
    return c.json({ ok: true, key: keyView(key, control.budgets) });
  });
  return app;
}
