import { Hono } from "hono";
import type { CatalogEntry } from "../gateway/model_catalog.ts";
import type { ClientIdentity } from "../gateway/identity.ts";
import { GatewayError } from "../model/mod.ts";
import { quoteValue, showBody, tagsBody } from "../wire/mod.ts";
import type { AppEnv } from "./env.ts";
import { readJsonBody } from "./read_body.ts";

/** What the utility routes need from the gateway. */
export interface UtilityDeps {
  /** Routable models visible to an identity (allowlist applied). */
  readonly visibleModels: (identity: ClientIdentity) => CatalogEntry[];
}

const EPOCH_ISO = "1970-01-01T00:00:00Z";

/** Model listings: `GET /v1/models` (OpenAI shape, or Anthropic's with anthropic-version), `/api/tags`, `/api/show`. */
export function utilityRoutes(deps: UtilityDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/v1/models", (c) => {
    const models = deps.visibleModels(c.get("identity"));
    if (c.req.header("anthropic-version")) {
      const data = models.map((m) => ({
        type: "model",
        id: m.id,
        display_name: m.id,
        created_at: EPOCH_ISO,
      }));
      return c.json({
        data,
        has_more: false,
        first_id: data[0]?.id ?? null,
        last_id: data.at(-1)?.id ?? null,
      });
    }
    return c.json({
      object: "list",
      // `kind` beside OpenAI's fields: which endpoint the model answers (chat, embedding, image, …).
      data: models.map((m) => ({
        id: m.id,
        object: "model",
        created: 0,
        owned_by: m.ownedBy,
        kind: m.modelKind,
      })),
    });
  });
  app.get("/api/tags", (c) => {
    const models = deps.visibleModels(c.get("identity"));
    return c.json(tagsBody(models.map((m) => ({
      name: m.id,
      modifiedAt: EPOCH_ISO,
      capabilities: { tools: true, vision: true, kind: m.modelKind },
    }))));
  });
  app.post("/api/show", async (c) => {
    const body = await readJsonBody(c.req.raw) as Record<string, unknown>;
    const name = typeof body?.model === "string"
      ? body.model
      : typeof body?.name === "string"
      ? body.name
      : "";
    if (name === "") throw new GatewayError(400, "invalid_request", "model: required (or name)");
    const entry = deps.visibleModels(c.get("identity")).find((m) => m.id === name);
    if (entry === undefined) throw new GatewayError(404, "not_found", `model ${quoteValue(name)} not found`);
    return c.json(showBody(name, { tools: true, vision: true, kind: entry.modelKind }));
  });
  return app;
}
