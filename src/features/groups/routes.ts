import { Hono } from "hono";
import { z } from "zod";
import type { DashboardContext } from "../../dashboard/context.ts";
import type { AppEnv } from "../../http/env.ts";
import { answer, idParam, readBody } from "../../dashboard/validation.ts";
import { stringList } from "../input.ts";
import { groupView } from "./state.ts";

const limit = z.number({ error: "must be a whole number of at least 1, or null to inherit" }).nullable()
  .optional();

const createSchema = z.object({
  name: z.string({ error: "must be a string" }),
  rpm: limit,
  tpm: limit,
  max_parallel: limit,
  allowed_models: stringList.default([]),
});

const updateSchema = createSchema.partial().extend({ allowed_models: stringList.optional() });

/** Key groups: create, change (limits, allowlist, name), delete (its keys stay, ungrouped). */
export function groupsRoutes(ctx: DashboardContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const groups = ctx.manage.groups;

  app.post("/dashboard/api/groups", async (c) => {
    const input = await readBody(c, "POST /groups", createSchema);
    const group = groups.create({
      name: input.name,
      limits: { rpm: input.rpm ?? null, tpm: input.tpm ?? null, maxParallel: input.max_parallel ?? null },
      allowedModels: input.allowed_models,
    });
    return answer("POST /groups", { ok: true, group: groupView(group, ctx) }, 201);
  });

  app.post("/dashboard/api/groups/:id", async (c) => {
    const id = idParam(c.req.param("id"), "Key group");
    const input = await readBody(c, "POST /groups/:id", updateSchema);
    const group = groups.update(id, {
      name: input.name,
      limits: { rpm: input.rpm, tpm: input.tpm, maxParallel: input.max_parallel },
      allowedModels: input.allowed_models,
    });
    return answer("POST /groups/:id", { ok: true, group: groupView(group, ctx) });
  });

  app.delete("/dashboard/api/groups/:id", (c) => {
    const group = groups.delete(idParam(c.req.param("id"), "Key group"));
    return answer("DELETE /groups/:id", { ok: true, group: groupView(group, ctx) });
  });
  return app;
}
