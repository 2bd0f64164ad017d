import { Hono } from "hono";
import { z } from "zod";
import type { DashboardContext } from "../../dashboard/context.ts";
import { keyDetail } from "./state.ts";
import { invalidField, notFound } from "../field_error.ts";
import { GatewayError } from "../../model/mod.ts";
import type { AppEnv } from "../../http/env.ts";
import { readJsonBody } from "../../http/read_body.ts";
import { admitter, ingestAnswer } from "./push_routes.ts";
import { answer, readBody } from "../../dashboard/validation.ts";
import { download } from "../../http/responses.ts";

/** Import files may be larger than other dashboard bodies (OAuth blobs, exported state). */
const IMPORT_LIMIT = 8 * 1024 * 1024;

const addSchema = z.object({
  text: z.string({ error: "must be a string" }).min(1, "is required").max(2_000_000, "is too long"),
  provider: z.string().trim().max(100, "is too long").optional(),
  base_url: z.string().trim().max(2000, "is too long").optional(),
  label: z.string().trim().max(200, "is too long").optional(),
  identify: z.boolean({ error: "must be true or false" }).optional(),
});

/** Dashboard inventory actions: Add Keys, Import JSON, export, recheck, archive/restore, delete, key detail. */
export function inventoryManageRoutes(ctx: DashboardContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const inventory = ctx.manage.inventory;

  app.post("/dashboard/api/inventory/keys", async (c) => {
    const input = await readBody(c, "POST /inventory/keys", addSchema);
    const options = {
      provider: input.provider || undefined,
      baseUrl: input.base_url || undefined,
      label: input.label || undefined,
      identify: input.identify === true,
    };
    return ingestAnswer(c, inventory.addText(input.text, options, admitter(ctx, c)));
  });

  app.post("/dashboard/api/inventory/import", async (c) => {
    let doc: unknown;
    const type = c.req.header("content-type") ?? "";
    if (type.startsWith("multipart/form-data")) {
      const file = (await c.req.formData()).get("export_file");
      if (!(file instanceof File)) throw invalidField("export_file", "is required");
      if (file.size > IMPORT_LIMIT) throw invalidField("export_file", "is larger than 8 MB", 413);
      try {
        doc = JSON.parse(await file.text());
      } catch {
        throw invalidField("export_file", "is not valid JSON");
      }
    } else {
      try {
        doc = await readJsonBody(c.req.raw, IMPORT_LIMIT);
      } catch (error) {
        if (error instanceof GatewayError && error.status === 400) throw invalidField("file", error.message);
        throw error;
      }
    }
    return ingestAnswer(c, await inventory.importJson(doc, admitter(ctx, c)));
  });

  // Like the database export: the file holds every key in plaintext, so the API asks for an explicit yes.
  app.get("/dashboard/api/inventory/export", (c) => {
    if (c.req.query("include_secrets") !== "true") {
      throw invalidField(
        "include_secrets",
        "must be true: the export contains every upstream key in plaintext",
      );
    }
    const doc = inventory.exportJson(c.req.query("provider_id") || undefined);
    return download(
      JSON.stringify(doc, null, 2),
      "application/json; charset=utf-8",
      "gateway-inventory.json",
    );
  });

  app.get("/dashboard/api/inventory/keys/:id", (c) => {
    const detail = keyDetail(ctx, c.req.param("id"));
    if (detail === null) throw notFound(`Inventory key "${c.req.param("id")}" does not exist`);
    c.header("cache-control", "private, no-store");
    return answer("GET /inventory/keys/:id", detail);
  });
  app.post(
    "/dashboard/api/inventory/keys/:id/recheck",
    (c) => answer("POST /inventory/keys/:id/recheck", { ok: true, ...inventory.recheck(c.req.param("id")) }),
  );
  app.post(
    "/dashboard/api/inventory/keys/:id/identify",
    (c) =>
      answer("POST /inventory/keys/:id/identify", { ok: true, ...inventory.identify([c.req.param("id")]) }),
  );
  app.post(
    "/dashboard/api/inventory/recheck",
    () => answer("POST /inventory/recheck", { ok: true, ...inventory.recheck() }),
  );
  app.post("/dashboard/api/inventory/keys/:id/archive", (c) => {
    inventory.archive(c.req.param("id"), true);
    return answer("POST /inventory/keys/:id/archive", { ok: true, archived: true });
  });
  app.post("/dashboard/api/inventory/keys/:id/restore", (c) => {
    inventory.archive(c.req.param("id"), false);
    return answer("POST /inventory/keys/:id/restore", { ok: true, archived: false });
  });
  app.delete("/dashboard/api/inventory/keys/:id", (c) => {
    inventory.delete(c.req.param("id"));
    return answer("DELETE /inventory/keys/:id", { ok: true });
  });
  return app;
}
