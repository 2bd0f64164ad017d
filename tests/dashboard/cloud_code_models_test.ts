import { assertEquals } from "../helpers/assert.ts";
import { fetchUpstreamModels } from "../../src/dashboard/provider_probe.ts";

Deno.test("fetchUpstreamModels() for Cloud Code posts the project to fetchAvailableModels and lists the non-internal ids", async () => {
  const seen: { url: string; body: string; auth: string | null }[] = [];
  const fetcher = ((url: string, init: RequestInit) => {
    seen.push({ url, body: String(init.body), auth: new Headers(init.headers).get("authorization") });
    return Promise.resolve(Response.json({
      models: {
        "gemini-2.5-pro": { quotaInfo: { remainingFraction: 0.4, resetTime: "2026-11-26T00:00:00Z" } },
        "gemini-2.5-flash": {},
        "internal-x": { isInternal: true },
      },
    }));
  }) as typeof fetch;
  const result = await fetchUpstreamModels({
    apiType: "cli_oauth",
    baseUrl: "https://cloudcode.example",
    apiKey: JSON.stringify({ access_token: "tok", extra: { project_id: "proj-1" } }),
  }, fetcher);
  assertEquals(result, {
    ok: true,
    models: ["gemini-2.5-flash", "gemini-2.5-pro"],
    url: "https://cloudcode.example/v1internal:fetchAvailableModels",
  });
  assertEquals(seen[0].body, '{"project":"proj-1"}');
  assertEquals(seen[0].auth, "Bearer tok");
});
