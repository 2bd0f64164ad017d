import { Hono } from "hono";
import { z } from "zod";
import type { DashboardContext } from "../../dashboard/context.ts";
import { keyView } from "./state.ts";
import type { ApiKeyRecord } from "../../storage/mod.ts";
import type { AppEnv } from "../../http/env.ts";
import { answer, idParam, readBody } from "../../dashboard/validation.ts";
import { stringList } from "../input.ts";

const budgetField = z.number({ error: "must be a number greater than 0 (USD)" }).nullable().optional();

const role = z.enum(["admin", "viewer"], {
  error: 'must be "admin", "viewer" or null (follow the allowlist)',
})
  .nullable().optional();

const limit = z.number({ error: "must be a whole number of at least 1, or null to inherit" }).nullable()
  .optional();
const governance = {
  group_id: z.number({ error: "must be a key group id or null" }).int().positive().nullable().optional(),
  rpm: limit,
  tpm: limit,
  max_parallel: limit,
  expires_at: z.number({ error: "must be a time (epoch ms) or null: never" }).nullable().optional(),
};

const createSchema = z.object({
  name: z.string({ error: "must be a string" }),
  can_login: z.boolean({ error: "must be true or false" }).default(true),
  allowed_models: stringList.default([]),
  daily_budget: budgetField,
  role,
  ...governance,
});

const updateSchema = z.object({
  name: z.string({ error: "must be a string" }).optional(),
  can_login: z.boolean({ error: "must be true or false" }).optional(),
  allowed_models: stringList.optional(),
  daily_budget: budgetField,
  role,
  ...governance,
});

const rotateSchema = z.object({
  grace_seconds: z.number({ error: "must be a number of seconds (0: none)" }).min(0, "must be 0 or more")
    .optional(),
});

/** The limits fields of a body as a partial update (absent fields stay as they are). */
function limitsOf(input: { rpm?: number | null; tpm?: number | null; max_parallel?: number | null }) {
  return { rpm: input.rpm, tpm: input.tpm, maxParallel: input.max_parallel };
}

/** Key management: create (plaintext once), update scopes and budget, revoke. */
export function keysRoutes(ctx: DashboardContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const keys = ctx.manage.keys;
  const view = (key: ApiKeyRecord) => keyView(key, ctx);

  app.post("/dashboard/api/v2/keys", async (c) => {
    const input = await readBody(c, "POST /v2/keys", createSchema);
    const created = keys.create({
      name: input.name,
      canLogin: input.can_login,
      allowedModels: input.allowed_models,
      dailyBudget: input.daily_budget ?? undefined,
      role: input.role,
      groupId: input.group_id,
      limits: limitsOf(input),
      expiresAt: input.expires_at,
    });
    return answer(
      "POST /v2/keys",
      { ok: true, key: view(created.record), plaintext: created.plaintext },
      201,
    );
  });

  app.post("/dashboard/api/keys/:id", async (c) => {
    const id = idParam(c.req.param("id"), "API key");
    const input = await readBody(c, "POST /keys/:id", updateSchema);
    const updated = keys.update(id, {
      name: input.name,
      canLogin: input.can_login,
      allowedModels: input.allowed_models,
      dailyBudget: input.daily_budget,
      role: input.role,
      groupId: input.group_id,
      limits: limitsOf(input),
      expiresAt: input.expires_at,
    });
    return answer("POST /keys/:id", { ok: true, key: view(updated) });
  });

  app.post("/dashboard/api/keys/:id/rotate", async (c) => {
    const id = idParam(c.req.param("id"), "API key");
    const input = await readBody(c, "POST /keys/:id/rotate", rotateSchema);
    const rotated = keys.rotate(
      id,
      input.grace_seconds === undefined ? undefined : input.grace_seconds * 1000,
    );
    return answer("POST /keys/:id/rotate", {
      ok: true,
      key: view(rotated.record),
      plaintext: rotated.plaintext,
    });
  });

  app.delete("/dashboard/api/keys/:id", (c) => {
    const revoked = keys.revoke(idParam(c.req.param("id"), "API key"));
    return answer("DELETE /keys/:id", { ok: true, key: view(revoked) });
  });
  return app;
}
