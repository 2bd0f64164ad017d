import { expandAccounts } from "../../src/gateway/inventory_accounts.ts";
import { detectProvider, inventoryIdForPrefix } from "../../src/inventory/catalog.ts";
import { healthOf, modelsFrom, probeVerdict, rateLimitsFrom } from "../../src/inventory/check_outcome.ts";
import { parseImport } from "../../src/inventory/import_shapes.ts";
import { cleanKey, maskKey } from "../../src/inventory/key_text.ts";
import type { ProviderConfig } from "../../src/config/mod.ts";
import { hashApiKey } from "../../src/security/api_key.ts";
import type { RoutableKey } from "../../src/storage/mod.ts";
import { assert, assertEquals } from "../helpers/assert.ts";

Deno.test("detectProvider() guesses from the key's shape only, most specific prefix first", () => {
  assertEquals(detectProvider("sk-or-v1-abcdef0123456789abcdef"), "openrouter");
  assertEquals(detectProvider("sk-ant-api03-abcdef0123456789"), "anthropic");
  assertEquals(detectProvider("sk-proj-abcdef0123456789abcdef"), "openai");
  assertEquals(detectProvider("gsk_abcdef0123456789abcdef"), "groq");
  assertEquals(detectProvider("plain-looking-secret-value"), null);
  assertEquals(inventoryIdForPrefix("gemini"), "google");
  assertEquals(inventoryIdForPrefix("p"), "p");
});

Deno.test("cleanKey() trims, drops wrapped whitespace and refuses URLs, digits and short text", () => {
  assertEquals(cleanKey("  sk-abc\n  def0123456789xyz \r\n", 0), {
    value: "sk-abcdef0123456789xyz",
    blob: false,
  });
  assertEquals(cleanKey("https://example.com/v1/key", 0), { error: "looks like a URL or a path, not a key" });
  assertEquals(cleanKey("12345678901234567890", 0), { error: "all digits: not a key" });
  assertEquals(cleanKey("short", 0), { error: "key is shorter than 16 characters" });
  const blob = cleanKey('{"accessToken":"at-123","refreshToken":"rt-456","expiresAt":2000000000}', 0);
  assertEquals(blob, {
    value: '{"access_token":"at-123","refresh_token":"rt-456","expires_at":2000000000}',
    blob: true,
  });
  assert("error" in cleanKey('{"nothing": true}', 0), "a blob needs a token");
  assertEquals(maskKey("sk-abcdef0123456789xyz"), "sk-…9xyz");
  assert(!maskKey('{"access_token":"at-1234567890abcdef"}').includes("at-1234567890abcdef"));
});

Deno.test("parseImport() reads the origin's export rows, bare arrays and peer connections", () => {
  const origin = parseImport({
    keys: [{ key_value: "k-1234567890abcdef", provider_id: "groq", status: "active" }],
  });
  assert("keys" in origin);
  assertEquals(origin.keys[0].provider, "groq");
  assertEquals(origin.keys[0].state?.status, "active");
  const bare = parseImport(["k-1234567890abcdef", "k-2234567890abcdef"]);
  assert("keys" in bare && bare.keys.length === 2);
  const peer = parseImport({
    providerConnections: [{ provider: "openai-codex", accessToken: "at", name: "me" }],
  });
  assert("keys" in peer);
  assertEquals([peer.keys[0].provider, peer.keys[0].label], ["codex", "me"]);
  assert("error" in parseImport(42));
});

Deno.test("check verdicts: rate-limit headers, model lists, probe answers and health", () => {
  const headers = new Headers({ "x-ratelimit-limit-requests": "60", "x-ratelimit-limit-tokens": "500" });
  assertEquals(rateLimitsFrom(headers), { rpm: 60, tpm: 500, rpd: null });
  assertEquals(modelsFrom({ data: [{ id: "a" }, { id: "b" }] }), ["a", "b"]);
  assertEquals(modelsFrom({ models: [{ name: "models/gemini-x" }] }), ["gemini-x"]);
  assertEquals(probeVerdict(200, "").usability, "usable");
  assertEquals(probeVerdict(402, "").usability, "no_quota");
  assertEquals(probeVerdict(400, '{"error":"insufficient balance"}').usability, "no_quota");
  assertEquals(probeVerdict(429, "rate limit").usability, "rate_limited");
  assertEquals(probeVerdict(401, "").usability, "auth_failed");
  assertEquals(probeVerdict(404, "").usable, true);
  assertEquals(probeVerdict(400, "bad").usability, "restricted");
  assertEquals(
    healthOf({ remaining: 0, total: 10, used: 10 }, { rpm: null, tpm: null, rpd: null }),
    "exhausted",
  );
  assertEquals(healthOf(null, { rpm: 3, tpm: null, rpd: null }), "warning");
});

const row = (id: string, prefix: string, apiKey: string, enabled = true): ProviderConfig => ({
  id,
  prefix,
  apiType: "chat_compat",
  baseUrl: "http://127.0.0.1:1/v1",
  apiKey,
  models: [],
  enabled,
});
const key = (id: string, value: string, providerId = "p"): RoutableKey => ({
  id,
  providerId,
  value,
  hash: hashApiKey(value),
  baseUrl: "",
  priority: 0,
  creditsRemaining: null,
  rateLimitRpm: null,
  rateLimitRpd: null,
});

Deno.test("expandAccounts(): keys expand under the prefix's first enabled row only, never twice", () => {
  const accounts = expandAccounts(
    [row("a", "p", "own-a"), row("b", "p", "own-b"), row("c", "q", "own-c")],
    [key("uk_1", "k1"), key("uk_2", "own-b")],
    new Set(),
  );
  assertEquals(accounts.map((a) => [a.id, a.apiKey]), [
    ["a::uk_1", "k1"],
    ["a::uk_2", "own-b"],
    ["a", "own-a"],
    ["c", "own-c"],
  ], "row b's own key routes as its inventory copy, so b adds no account of its own");
  const blocked = expandAccounts(
    [row("a", "p", "own-a")],
    [key("uk_1", "k1")],
    new Set([hashApiKey("own-a")]),
  );
  assertEquals(blocked.map((a) => a.id), ["a::uk_1"], "a known-bad own key gives way to inventory keys");
  const alone = expandAccounts([row("a", "p", "own-a")], [], new Set([hashApiKey("own-a")]));
  assertEquals(alone.map((a) => a.id), ["a"], "without inventory keys the row still routes its own key");
  // One key for two prefixes (two upstream kinds behind one service): its inventory copy routes prefix p
  // only, so prefix q keeps the row's own account (q once lost its only one and answered "no provider").
  const shared = expandAccounts(
    [row("a", "p", "same"), row("c", "q", "same")],
    [key("uk_1", "same")],
    new Set(),
  );
  assertEquals(shared.map((a) => a.id), ["a::uk_1", "c"]);
});
