import { Hono } from "hono";
import type { ResponseStore } from "../gateway/response_store.ts";
import { itemsQuery } from "../gateway/stored_conversation.ts";
import type { AppEnv } from "./env.ts";

/**
 * The Responses API's stored-response endpoints: `GET /v1/responses/{id}`, `GET /v1/responses/{id}/input_items`
 * and `DELETE /v1/responses/{id}`, behind the API's own authentication and scoped to the caller's key: another
 * key's response is as unknown as one that never existed (the API's 404).
 */
export function storedResponseRoutes(store: ResponseStore): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/v1/responses/:id", (c) => c.json(store.get(c.get("identity"), c.req.param("id"))));
  app.get("/v1/responses/:id/input_items", async (c) => {
    const query = itemsQuery((name) => c.req.query(name));
    return c.json(await store.inputItems(c.get("identity"), c.req.param("id"), query));
  });
  app.delete("/v1/responses/:id", (c) => c.json(store.delete(c.get("identity"), c.req.param("id"))));
  return app;
}
