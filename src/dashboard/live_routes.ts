import { Hono } from "hono";
import type { DashboardContext } from "./context.ts";
import type { AppEnv } from "../http/env.ts";
import { accessVia } from "./access.ts";
import { eventStream } from "../http/responses.ts";

/** The live usage stream (SSE) and the caller's own identity. */
export function liveRoutes(ctx: DashboardContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get("/dashboard/api/live", (c) => {
    const encoder = new TextEncoder();
    let unsubscribe = () => {};
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        const end = () => {
          try {
            controller.close();
          } catch { /* already closed */ }
        };
        unsubscribe = ctx.hub.subscribe((text) => controller.enqueue(encoder.encode(text)), end);
        c.req.raw.signal.addEventListener("abort", () => {
          unsubscribe();
          end();
        }, { once: true });
      },
      cancel() {
        unsubscribe();
      },
    });
    return eventStream(body);
  });

  app.get("/dashboard/api/me", (c) => {
    const identity = c.get("identity");
    return c.json({
      user: ctx.identity.label(identity),
      kind: identity.kind,
      role: ctx.identity.role(identity),
      key_id: identity.kind === "db" ? identity.keyId : null,
      via: accessVia(c.req.raw) ?? "header",
    });
  });
  return app;
}
