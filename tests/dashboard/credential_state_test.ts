import { assertEquals } from "../helpers/assert.ts";
import { startTestGateway } from "../helpers/gateway.ts";
import { createKey } from "../../src/features/keys/service.ts";

Deno.test("routing state: each subscription account shows its credential state (valid, expiring, needs sign-in); API-key kinds none", async () => {
  const now = Math.floor(Date.now() / 1000);
  const blob = (b: unknown) => `'${JSON.stringify(b)}'`;
  const provider = (id: string, apiType: string, key: string) =>
    `  - {id: ${id}, prefix: p, api_type: ${apiType}, base_url: "http://127.0.0.1:9", api_key: ${key}, models: [m]}\n`;
  const gw = await startTestGateway(
    "providers:\n" +
      provider(
        "renewable",
        "cloud_assistant_oauth",
        blob({ accessToken: "a", refreshToken: "r", expiresAt: now - 10 }),
      ) +
      provider("soon", "cli_oauth", blob({ access_token: "a", expires_at: now + 600 })) +
      provider("expired", "cli_oauth_alt", blob({ access_token: "a", expires_at: now - 600 })) +
      provider("plain", "chat_compat", "k"),
  );
  try {
    const key = createKey(
      gw.runtime.control.store,
      { name: "admin", canLogin: true, allowedModels: [] },
      Date.now(),
    );
    gw.runtime.control.reload();
    const state = await fetch(`${gw.url}/dashboard/api/v2/state/routing`, {
      headers: { authorization: `Bearer ${key.plaintext}` },
    }).then((r) => r.json());
    const accounts = state.data.prefixes[0].accounts as { id: string; credential_state: string | null }[];
    assertEquals(Object.fromEntries(accounts.map((a) => [a.id, a.credential_state])), {
      renewable: "valid",
      soon: "expiring",
      expired: "needs_sign_in",
      plain: null,
    });
  } finally {
    await gw.stop();
  }
});
