import {
  chatGptAccount,
  CredentialFormatError,
  mergeTokenResponse,
  parseCredential,
  resolveOAuthKind,
  secretsOf,
  serializeCredential,
} from "../../src/credentials/mod.ts";
import { assertEquals, assertThrows } from "../helpers/assert.ts";

const NOW = 1_800_000_000;

Deno.test("parseCredential() takes a bare token as the access token with no refresh", () => {
  const blob = parseCredential("  sk-ant-oat01-longlived  ", NOW);
  assertEquals(blob, { accessToken: "sk-ant-oat01-longlived", extra: {}, bare: true });
  assertEquals(serializeCredential(blob), "sk-ant-oat01-longlived");
});

Deno.test("parseCredential() reads the spec blob and keeps provider extras", () => {
  const blob = parseCredential(
    JSON.stringify({ access_token: "at", refresh_token: "rt", expires_at: NOW + 60, account_id: "acct-1" }),
    NOW,
  );
  assertEquals(blob.accessToken, "at");
  assertEquals(blob.refreshToken, "rt");
  assertEquals(blob.expiresAt, NOW + 60);
  assertEquals(blob.extra, { account_id: "acct-1" });
  const again = parseCredential(serializeCredential(blob), NOW);
  assertEquals(again, blob);
});

Deno.test("parseCredential() accepts peers' aliases: camelCase, milliseconds, ISO dates, expires_in", () => {
  assertEquals(
    parseCredential(JSON.stringify({ accessToken: "a", expiresAt: (NOW + 5) * 1000 }), NOW).expiresAt,
    NOW + 5,
  );
  assertEquals(
    parseCredential(JSON.stringify({ token: "a", expiry: new Date((NOW + 7) * 1000).toISOString() }), NOW)
      .expiresAt,
    NOW + 7,
  );
  assertEquals(
    parseCredential(JSON.stringify({ access_token: "a", expired: String(NOW + 9) }), NOW).expiresAt,
    NOW + 9,
  );
  assertEquals(
    parseCredential(JSON.stringify({ access_token: "a", expires_in: 3600 }), NOW).expiresAt,
    NOW + 3600,
  );
  assertEquals(parseCredential(JSON.stringify({ refreshToken: "r" }), NOW).refreshToken, "r");
});

Deno.test("parseCredential() unwraps Claude Code's and Codex's credential files", () => {
  const claude = parseCredential(
    JSON.stringify({
      claudeAiOauth: { accessToken: "a", refreshToken: "r", expiresAt: NOW * 1000, scopes: ["x"] },
    }),
    NOW,
  );
  assertEquals([claude.accessToken, claude.refreshToken, claude.expiresAt], ["a", "r", NOW]);
  assertEquals(claude.extra, { scopes: ["x"] });
  const codex = parseCredential(
    JSON.stringify({
      OPENAI_API_KEY: null,
      tokens: { access_token: "a", refresh_token: "r", account_id: "acc" },
    }),
    NOW,
  );
  assertEquals([codex.accessToken, codex.refreshToken, codex.extra.account_id], ["a", "r", "acc"]);
});

Deno.test("parseCredential() rejects broken JSON and JSON without tokens, naming no secret", () => {
  const error = assertThrows(
    () => parseCredential('{"access_token": "secret-value"', NOW),
    CredentialFormatError,
  );
  assertEquals(error.message.includes("secret-value"), false);
  assertThrows(() => parseCredential('{"expires_at": 5}', NOW), CredentialFormatError);
});

Deno.test("mergeTokenResponse() keeps the old refresh token when the server sends none", () => {
  const blob = parseCredential(
    JSON.stringify({ access_token: "a", refresh_token: "r1", account_id: "x" }),
    NOW,
  );
  const rotated = mergeTokenResponse(blob, { access_token: "b", refresh_token: "r2", expires_in: 100 }, NOW);
  assertEquals([rotated.accessToken, rotated.refreshToken, rotated.expiresAt], ["b", "r2", NOW + 100]);
  assertEquals(rotated.extra, { account_id: "x" });
  const kept = mergeTokenResponse(blob, { access_token: "c" }, NOW);
  assertEquals(kept.refreshToken, "r1");
  assertThrows(() => mergeTokenResponse(blob, { error: "x" }, NOW), CredentialFormatError);
});

Deno.test("secretsOf() lists every token of a blob for redaction, and a bare key as itself", () => {
  assertEquals(secretsOf(JSON.stringify({ access_token: "a1", refresh_token: "r1", id_token: "i1" })), [
    "a1",
    "r1",
    "i1",
  ]);
  assertEquals(secretsOf("sk-plain"), ["sk-plain"]);
  assertEquals(secretsOf("{broken"), ["{broken"]);
});

Deno.test("secretsOf() counts a Kiro credential's registered client secret as a secret, not its region or client id", () => {
  const kiro = JSON.stringify({
    accessToken: "aoa-access",
    refreshToken: "aor-refresh",
    expiresAt: "2026-12-01T00:00:00Z",
    region: "eu-central-1",
    clientId: "client-id-public",
    clientSecret: "client-secret-value",
    profileArn: "arn:aws:codewhisperer:eu-central-1:1:profile/X",
  });
  assertEquals(secretsOf(kiro), ["aoa-access", "aor-refresh", "client-secret-value"]);
  // The same when the blob is stored in the gateway's own shape (extras nested).
  const nested = JSON.stringify({ access_token: "a", extra: { client_secret: "s2", region: "us-east-1" } });
  assertEquals(secretsOf(nested), ["a", "s2"]);
});

Deno.test("chatGptAccount() reads the account id and plan from the id token, else the access token", () => {
  const jwt = (claims: unknown) =>
    `x.${btoa(JSON.stringify(claims)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_")}.y`;
  const claims = {
    email: "a@b.c",
    "https://api.openai.com/auth": { chatgpt_account_id: "acc-9", chatgpt_plan_type: "plus" },
  };
  assertEquals(chatGptAccount(jwt(claims), "opaque"), { accountId: "acc-9", plan: "plus", email: "a@b.c" });
  assertEquals(chatGptAccount(undefined, jwt(claims)).accountId, "acc-9");
  assertEquals(chatGptAccount("not-a-jwt", "opaque"), {});
});

Deno.test("resolveOAuthKind() applies per-provider overrides over the real hosts", () => {
  const facts = resolveOAuthKind("device_oauth_assistant", {
    deviceCodeUrl: "http://127.0.0.1:1/device/code",
    sessionTokenUrl: "http://127.0.0.1:2/token",
  });
  assertEquals(facts?.device?.codeUrl, "http://127.0.0.1:1/device/code");
  assertEquals(facts?.device?.tokenUrl, "https://github.com/login/oauth/access_token");
  assertEquals(facts?.sessionTokenUrl, "http://127.0.0.1:2/token");
  assertEquals(
    resolveOAuthKind("responses_oauth", undefined)?.tokenUrl,
    "https://auth.openai.com/oauth/token",
  );
  assertEquals(resolveOAuthKind("chat_compat", undefined), null);
});
