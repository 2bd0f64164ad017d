import { Hono } from "hono";
import type { DashboardContext } from "./context.ts";
import type { AppEnv } from "../http/env.ts";
import { accessVia } from "./access.ts";
import { eventStream } from "../http/responses.ts";

/**
 * The most a live stream holds unread: past it the hub sends the stream nothing (events wait in the hub,
 * bounded) until its client reads. Without it a dashboard that stops reading (a stalled tab, a client that
 * never reads) would have every batch queued for it for as long as it stays connected.
 */
export const LIVE_QUEUE_BYTES = 256 * 1024;

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
        unsubscribe = ctx.hub.subscribe(
          (text) => controller.enqueue(encoder.encode(text)),
          end,
          () => (controller.desiredSize ?? 0) > 0,
        );
        c.req.raw.signal.addEventListener("abort", () => {
          unsubscribe();
          end();
        }, { once: true });
      },
      cancel() {
        unsubscribe();
      },
    }, { highWaterMark: LIVE_QUEUE_BYTES, size: (chunk) => chunk.byteLength });
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
