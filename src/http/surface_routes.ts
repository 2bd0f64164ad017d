import { Hono } from "hono";
import { estimateRequestTokens } from "../accounting/mod.ts";
import type { Dispatcher } from "../gateway/dispatch.ts";
import { GatewayError, type WireFormat } from "../model/mod.ts";
import { codecFor, type DecodeContext } from "../wire/mod.ts";
import type { AppEnv } from "./env.ts";
import { readJsonBody } from "./read_body.ts";

/** The five client surfaces' model endpoints. */
export function surfaceRoutes(dispatcher: Dispatcher): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const handle =
    (surface: WireFormat, decode: DecodeContext = {}) => async (c: import("hono").Context<AppEnv>) => {
      const body = await readJsonBody(c.req.raw);
      return dispatcher.handle({
        surface,
        body,
        decode,
        identity: c.get("identity"),
        clientHeaders: c.req.raw.headers,
        signal: c.req.raw.signal,
      });
    };
  app.post("/v1/chat/completions", handle("chat_completions"));
  app.post("/v1/responses", handle("responses"));
  app.post("/v1/messages", handle("messages"));
  app.post("/v1/messages/count_tokens", async (c) => {
    const body = await readJsonBody(c.req.raw);
    const request = codecFor("messages").decodeRequest(withMaxTokens(body), {});
    return c.json({ input_tokens: estimateRequestTokens(request) });
  });
  app.post("/api/chat", handle("local_runner", { endpoint: "chat" }));
  app.post("/api/generate", handle("local_runner", { endpoint: "generate" }));
  // @google/genai defaults to /v1/models/…; Gemini CLI and older SDKs use /v1beta/models/….
  const generate = (c: import("hono").Context<AppEnv>) => {
    const target = c.req.param("target") ?? "";
    const colon = target.lastIndexOf(":");
    const action = colon === -1 ? "" : target.slice(colon + 1);
    if (action !== "generateContent" && action !== "streamGenerateContent") {
      throw new GatewayError(
        404,
        "not_found",
        `Unknown method "${action || target}"; use :generateContent or :streamGenerateContent`,
      );
    }
    const model = decodeURIComponent(target.slice(0, colon));
    const pathModel = model.includes("/") ? model : `gemini/${model}`;
    return handle("generate_content", { pathModel, pathStream: action === "streamGenerateContent" })(c);
  };
  app.post("/v1beta/models/:target{.+}", generate);
  app.post("/v1/models/:target{.+}", generate);
  return app;
}

/** count_tokens bodies have no max_tokens; the decoder requires one, and it does not affect the count. */
function withMaxTokens(body: unknown): unknown {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return body;
  return { max_tokens: 1, ...(body as Record<string, unknown>) };
}
