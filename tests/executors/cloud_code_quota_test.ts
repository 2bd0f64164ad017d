import { assertEquals } from "../helpers/assert.ts";
import { cloudCodeQuotaUrl, readCloudCodeModels } from "../../src/executors/oauth/mod.ts";
import type { ProviderConfig } from "../../src/config/mod.ts";

Deno.test("readCloudCodeModels(): ids without internal ones, a window per pool that is not full (a missing fraction is zero)", () => {
  const reset = "2026-11-27T12:00:00Z";
  const list = readCloudCodeModels({
    models: {
      "gemini-2.5-pro": { quotaInfo: { remainingFraction: 0.4, resetTime: reset } },
      "gemini-2.5-flash": { quotaInfo: { remainingFraction: 1, resetTime: reset } },
      "claude-sonnet-4-5": { quotaInfo: { resetTime: reset } },
      "no-quota": {},
      "internal-x": { isInternal: true, quotaInfo: { remainingFraction: 0 } },
    },
  });
  assertEquals(list.ids, ["claude-sonnet-4-5", "gemini-2.5-flash", "gemini-2.5-pro", "no-quota"]);
  assertEquals(list.windows.map((w) => [w.id, w.usedFraction, w.resetAtMs, w.rejected]), [
    ["cloudcode_gemini-2.5-pro", 0.6, Date.parse(reset), false],
    ["cloudcode_claude-sonnet-4-5", 1, Date.parse(reset), true],
  ]);
  // The older list shape.
  assertEquals(readCloudCodeModels({ models: [{ name: "models/a" }, { id: "b" }] }).ids, ["a", "b"]);
  assertEquals(readCloudCodeModels(null), { ids: [], windows: [] });
});

Deno.test("cloudCodeQuotaUrl(): the override, else the kind's own host only", () => {
  const provider = (baseUrl: string, usageUrl?: string): ProviderConfig => ({
    id: "g",
    prefix: "g",
    apiType: "cli_oauth",
    baseUrl,
    apiKey: "",
    models: [],
    enabled: true,
    ...(usageUrl ? { oauth: { usageUrl } } : {}),
  });
  assertEquals(
    cloudCodeQuotaUrl(provider("https://cloudcode-pa.googleapis.com/")),
    "https://cloudcode-pa.googleapis.com/v1internal:fetchAvailableModels",
  );
  assertEquals(cloudCodeQuotaUrl(provider("http://127.0.0.1:9")), null);
  assertEquals(
    cloudCodeQuotaUrl(provider("http://127.0.0.1:9", "http://127.0.0.1:9/q")),
    "http://127.0.0.1:9/q",
  );
});
