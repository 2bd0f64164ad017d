import { Hono } from "hono";
import { z } from "zod";
import type { DashboardContext } from "../../dashboard/context.ts";
import { comboView } from "../../dashboard/views.ts";
import type { ComboRecord } from "../../storage/mod.ts";
import type { AppEnv } from "../env.ts";
import { fieldError, jsonObject, notFound, parseInput, stringList } from "./validation.ts";

const name = z.string({ error: "must be a string" }).trim().min(1, "is required").max(200, "is too long")
  .regex(/^\S+$/, "must not contain spaces");
const models = stringList.pipe(
  z.array(z.string().regex(/^[^/\s]+\/\S+$/, "each entry must be <prefix>/<model>")).min(
    1,
    "needs at least one <prefix>/<model>",
  ),
);

/** Combos: create, update (by id or name), delete. */
export function combosRoutes(ctx: DashboardContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const { control } = ctx.runtime;
  const find = (ref: string): ComboRecord => {
    const combo = control.combos.find((c) => String(c.id) === ref || c.name === ref);
    if (!combo) throw notFound(`Combo "${ref}" does not exist`);
    return combo;
  };
  const checkName = (candidate: string, selfId: number | null) => {
    if (control.combos.some((c) => c.name === candidate && c.id !== selfId)) {
      throw fieldError("name", `a combo named "${candidate}" already exists`, 409);
    }
    const prefixes = new Set(control.providers.map((p) => p.prefix));
    if (prefixes.has(candidate)) throw fieldError("name", `"${candidate}" is already a provider prefix`);
  };

  app.post("/dashboard/api/combos", async (c) => {
    const input = parseInput(z.object({ name, models }), await jsonObject(c));
    checkName(input.name, null);
    const id = control.store.combos.create({ name: input.name, models: input.models }, ctx.runtime.now());
    control.reload();
    return c.json({ ok: true, combo: comboView(find(String(id)), ctx.runtime) }, 201);
  });

  app.put("/dashboard/api/combos/:id", async (c) => {
    const current = find(decodeURIComponent(c.req.param("id")));
    const input = parseInput(
      z.object({ name: name.optional(), models: models.optional() }),
      await jsonObject(c),
    );
    const next = { name: input.name ?? current.name, models: input.models ?? current.models };
    if (next.name !== current.name) checkName(next.name, current.id);
    control.store.combos.update(current.id, next, ctx.runtime.now());
    control.reload();
    return c.json({ ok: true, combo: comboView(find(String(current.id)), ctx.runtime) });
  });

  app.delete("/dashboard/api/combos/:id", (c) => {
    const current = find(decodeURIComponent(c.req.param("id")));
    control.store.combos.delete(current.id);
    control.reload();
    return c.json({ ok: true });
  });
  return app;
}
