import { API_TYPES } from "../../src/config/mod.ts";
import type { StateEnvelope } from "../../src/dashboard/contract/mod.ts";
import { SCREENS } from "../../src/dashboard/screens.ts";
import { presetFor } from "../../src/executors/presets.ts";
import { LEGACY_SCREENS } from "../../src/dashboard/mod.ts";
import { assert, assertEquals } from "../helpers/assert.ts";
import { setupDashboard } from "./dashboard_helpers.ts";

Deno.test("providers section lists every api_type with the wire format its executor preset speaks", async () => {
  await using t = await setupDashboard();
  const r = await t.json("/dashboard/api/v2/state/providers");
  const section = r.body as unknown as StateEnvelope<"providers">;
  assertEquals(section.data.api_types.map((t) => t.api_type), [...API_TYPES]);
  for (const option of section.data.api_types) {
    const preset = presetFor(option.api_type);
    assertEquals(option.format, preset.format, `${option.api_type} format`);
  }
  const responses = section.data.api_types.find((t) => t.api_type === "responses_native");
  assertEquals(responses, { api_type: "responses_native", format: "responses", signs_in: false });
  assertEquals(section.data.providers.map((p) => [p.id, p.api_type, p.format]), [[
    "acct-a",
    "chat_compat",
    "chat_completions",
  ]]);
});

Deno.test("every former /dashboard/<screen> URL redirects to its screen in the shared list", async () => {
  await using t = await setupDashboard();
  assertEquals([...LEGACY_SCREENS], SCREENS.map((s) => s.id).filter((id) => id !== "overview"));
  for (const id of LEGACY_SCREENS) {
    const response = await t.api(`/dashboard/${id}?x=1`);
    await response.body?.cancel();
    assertEquals([response.status, response.headers.get("location")], [302, `/dashboard/ui/${id}?x=1`]);
  }
  assert(SCREENS.some((s) => s.id === "overview"));
});
