import { Hono } from "hono";
import type { DashboardContext } from "../../dashboard/context.ts";
import { comboView } from "./state.ts";
import type { ComboRecord } from "../../storage/mod.ts";
import type { AppEnv } from "../../http/env.ts";
import { answer, readBody } from "../../dashboard/validation.ts";
import { comboCreate, comboUpdate } from "./input.ts";

/** Combos: create, update (by id or name), delete; the combo service validates and reloads. */
export function combosRoutes(ctx: DashboardContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const combos = ctx.manage.combos;
  const view = (combo: ComboRecord) => comboView(combo, ctx);
  const ref = (raw: string) => decodeURIComponent(raw);

  app.post("/dashboard/api/combos", async (c) => {
    const input = await readBody(c, "POST /combos", comboCreate);
    return answer("POST /combos", { ok: true, combo: view(combos.create(input)) }, 201);
  });

  app.put("/dashboard/api/combos/:id", async (c) => {
    const current = combos.get(ref(c.req.param("id")));
    const input = await readBody(c, "PUT /combos/:id", comboUpdate);
    return answer("PUT /combos/:id", { ok: true, combo: view(combos.update(String(current.id), input)) });
  });

  app.delete("/dashboard/api/combos/:id", (c) => {
    combos.delete(ref(c.req.param("id")));
    return answer("DELETE /combos/:id", { ok: true });
  });
  return app;
}
