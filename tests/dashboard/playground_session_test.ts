/**
 * The Playground's way onto the data plane: a dashboard session cookie counts on a model endpoint only
 * with the Playground's marker header and this gateway's own Origin, and then as the session's identity.
 */
import { chatCompletion } from "../helpers/chat_fixtures.ts";
import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { ADMIN_KEY, body, type DashboardSetup, setupDashboard } from "./dashboard_helpers.ts";

/** Signs in with `key` and returns the session cookie. */
async function signIn(t: DashboardSetup, key: string): Promise<string> {
  const login = await fetch(`${t.gw.url}/dashboard/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ api_key: key }),
  });
  await login.body?.cancel();
  return (login.headers.get("set-cookie") ?? "").split(";")[0];
}

/** A chat completion sent with the session cookie and the given extra headers. */
function chat(t: DashboardSetup, cookie: string, headers: Record<string, string>, model = "p/m1") {
  return fetch(`${t.gw.url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie, ...headers },
    body: JSON.stringify({ model, messages: [{ role: "user", content: "hi" }] }),
  });
}

Deno.test("playground session: the cookie alone, a foreign Origin or no Origin gets the spec's 401", async () => {
  await using t = await setupDashboard();
  t.gw.management.settings.apply({ server_require_api_key: "true" });
  const cookie = await signIn(t, ADMIN_KEY);
  const own = t.gw.url;
  const refusals: Record<string, string>[] = [
    {},
    { origin: own },
    { "x-gateway-playground": "1" },
    { "x-gateway-playground": "1", origin: "http://evil.example" },
    { "x-gateway-playground": "1", origin: "null" },
    { "x-gateway-playground": "yes", origin: own },
  ];
  for (const headers of refusals) {
    const response = await chat(t, cookie, headers);
    assertEquals(response.status, 401, JSON.stringify(headers));
    assertEquals(await response.json(), { detail: "Invalid API key" });
  }
  assertEquals(t.mock.requests.length, 0, "no refused request reached the upstream");
});

Deno.test("playground session: with the marker and our Origin it is served as the session's identity", async () => {
  await using t = await setupDashboard();
  t.mock.script({ json: chatCompletion("hello", { prompt_tokens: 3, completion_tokens: 2 }) });
  t.gw.management.settings.apply({ server_require_api_key: "true" });
  const cookie = await signIn(t, ADMIN_KEY);
  const response = await chat(t, cookie, { "x-gateway-playground": "1", origin: t.gw.url });
  assertEquals(response.status, 200);
  assertStringIncludes(JSON.stringify(await response.json()), "hello");
  assertEquals(t.mock.requests.length, 1);
});

Deno.test("playground session: a viewer's allowlist applies (no side door)", async () => {
  await using t = await setupDashboard();
  const created = await t.json(
    "/dashboard/api/v2/keys",
    body("POST", { name: "team-a", allowed_models: ["p/other"], can_login: true }),
  );
  t.gw.management.settings.apply({ server_require_api_key: "true" });
  assertEquals(created.status, 201);
  const cookie = await signIn(t, created.body.plaintext as string);
  assertEquals(
    (await (await fetch(`${t.gw.url}/dashboard/api/me`, { headers: { cookie } })).json()).role,
    "viewer",
  );
  const response = await chat(t, cookie, { "x-gateway-playground": "1", origin: t.gw.url });
  assertEquals(response.status, 403);
  await response.body?.cancel();
  assertEquals(t.mock.requests.length, 0);
});

/** The Playground's requests of every other kind: path and body (JSON, or a multipart upload). */
function otherKinds(): { path: string; body: () => BodyInit }[] {
  const json = (value: unknown) => () => JSON.stringify(value);
  return [
    { path: "/v1/completions", body: json({ model: "p/m1", prompt: "hi" }) },
    { path: "/v1/embeddings", body: json({ model: "p/text-embedding-3-small", input: "hi" }) },
    { path: "/v1/images/generations", body: json({ model: "p/dall-e-3", prompt: "an apple" }) },
    { path: "/v1/audio/speech", body: json({ model: "p/tts-1", input: "hi", voice: "alloy" }) },
    { path: "/v1/rerank", body: json({ model: "p/rerank-v3.5", query: "q", documents: ["a", "b"] }) },
    {
      path: "/v1/audio/transcriptions",
      body: () => {
        const form = new FormData();
        form.append("model", "p/whisper-1");
        form.append("file", new File([new Uint8Array([1, 2, 3])], "a.wav", { type: "audio/wav" }));
        return form;
      },
    },
  ];
}

Deno.test("playground session: every other kind's endpoint is as strict as chat (marker and own Origin, else 401)", async () => {
  await using t = await setupDashboard();
  t.gw.management.settings.apply({ server_require_api_key: "true" });
  const cookie = await signIn(t, ADMIN_KEY);
  for (const kind of otherKinds()) {
    const refusals: Record<string, string>[] = [
      { origin: t.gw.url },
      { "x-gateway-playground": "1", origin: "http://evil.example" },
    ];
    for (const headers of refusals) {
      const body = kind.body();
      const response = await fetch(`${t.gw.url}${kind.path}`, {
        method: "POST",
        headers: {
          cookie,
          ...headers,
          ...(typeof body === "string" ? { "content-type": "application/json" } : {}),
        },
        body,
      });
      assertEquals(response.status, 401, `${kind.path} ${JSON.stringify(headers)}`);
      assertEquals(await response.json(), { detail: "Invalid API key" });
    }
  }
  assertEquals(t.mock.requests.length, 0, "no refused request reached the upstream");

  // With the marker and this gateway's Origin, an embeddings request and an upload are served.
  t.mock.script({
    json: { data: [{ index: 0, embedding: [0.5] }], usage: { prompt_tokens: 1, total_tokens: 1 } },
  }, { json: { text: "hello", duration: 1 } });
  const served = { cookie, "x-gateway-playground": "1", origin: t.gw.url };
  const [, embeddings, , , , transcription] = otherKinds();
  const vectors = await fetch(`${t.gw.url}${embeddings.path}`, {
    method: "POST",
    headers: { ...served, "content-type": "application/json" },
    body: embeddings.body(),
  });
  assertEquals(vectors.status, 200, await vectors.clone().text());
  assertEquals((await vectors.json()).data[0].embedding, [0.5]);
  const text = await fetch(`${t.gw.url}${transcription.path}`, {
    method: "POST",
    headers: served,
    body: transcription.body(),
  });
  assertEquals(text.status, 200);
  assertEquals((await text.json()).text, "hello");
  assertEquals(t.mock.requests.map((r) => r.path), ["/v1/embeddings", "/v1/audio/transcriptions"]);
});
