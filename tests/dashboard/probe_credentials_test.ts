/** Fetch Models and Test Connection never carry a provider's key to another host. */
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { body, type DashboardSetup, setupDashboard } from "./dashboard_helpers.ts";

/** A loopback server that records the credentials it is sent and answers with `answer`. */
function server(answer: (request: Request, self: string) => Response) {
  const seen: { path: string; authorization: string | null }[] = [];
  let origin = "";
  const instance = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    seen.push({ path: new URL(request.url).pathname, authorization: request.headers.get("authorization") });
    return answer(request, origin);
  });
  origin = `http://127.0.0.1:${instance.addr.port}`;
  return { origin, seen, close: () => instance.shutdown() };
}

const MODELS = () => Response.json({ data: [{ id: "m-ok" }] });

async function addProvider(t: DashboardSetup, id: string, baseUrl: string) {
  const created = await t.json(
    "/dashboard/api/providers",
    body("POST", { id, prefix: id, api_type: "chat_compat", base_url: baseUrl, api_key: `sk-secret-${id}` }),
  );
  assertEquals(created.status, 201);
}

Deno.test("probes: a redirect to another host is refused and the key never reaches it", async () => {
  await using t = await setupDashboard();
  const sink = server(MODELS);
  const redirector = server(() => Response.redirect(`${sink.origin}/v1/models`, 302));
  try {
    await addProvider(t, "redir", `${redirector.origin}/v1`);
    const fetched = await t.json(
      "/dashboard/api/providers/fetch-models",
      body("POST", { provider_id: "redir" }),
    );
    assertEquals(fetched.status, 502);
    assertStringIncludes(JSON.stringify(fetched.body), "credentials are never sent across hosts");
    const probe = await t.json("/dashboard/api/providers/redir/test", body("POST", { model: "m" }));
    assertEquals((probe.body as { ok: boolean }).ok, false);
    assertStringIncludes((probe.body as { message: string }).message, "another host");
    assertEquals(sink.seen.length, 0, "the other host was never called");
    assert(redirector.seen.every((r) => r.authorization === "Bearer sk-secret-redir"));
  } finally {
    await sink.close();
    await redirector.close();
  }
});

Deno.test("probes: a redirect within the provider's own origin is followed", async () => {
  await using t = await setupDashboard();
  const upstream = server((request, self) =>
    new URL(request.url).pathname === "/v1/models" ? Response.redirect(`${self}/v2/models`, 301) : MODELS()
  );
  try {
    await addProvider(t, "moved", `${upstream.origin}/v1`);
    const fetched = await t.json(
      "/dashboard/api/providers/fetch-models",
      body("POST", { provider_id: "moved" }),
    );
    assertEquals(fetched.status, 200);
    assertEquals((fetched.body as { models: string[] }).models, ["m-ok"]);
  } finally {
    await upstream.close();
  }
});

Deno.test("fetch-models: a stored key is sent only to its own provider's base URL", async () => {
  await using t = await setupDashboard();
  const own = server(MODELS);
  const other = server(MODELS);
  try {
    await addProvider(t, "own", `${own.origin}/v1`);
    const elsewhere = await t.json(
      "/dashboard/api/providers/fetch-models",
      body("POST", { provider_id: "own", base_url: `${other.origin}/v1` }),
    );
    assertEquals([elsewhere.status, (elsewhere.body.error as { field: string }).field], [400, "api_key"]);
    assertEquals(other.seen.length, 0);
    const withKey = await t.json(
      "/dashboard/api/providers/fetch-models",
      body("POST", { provider_id: "own", base_url: `${other.origin}/v1`, api_key: "sk-typed-in" }),
    );
    assertEquals(withKey.status, 200);
    assertEquals(other.seen.map((r) => r.authorization), ["Bearer sk-typed-in"]);
    const home = await t.json("/dashboard/api/providers/fetch-models", body("POST", { provider_id: "own" }));
    assertEquals(home.status, 200);
    assertEquals(own.seen.map((r) => r.authorization), ["Bearer sk-secret-own"]);
  } finally {
    await own.close();
    await other.close();
  }
});

Deno.test("probes: an upstream error that echoes the key is shown without it", async () => {
  await using t = await setupDashboard();
  const echo = server((request) =>
    Response.json(
      { error: { message: `Incorrect API key provided: ${request.headers.get("authorization")}` } },
      { status: 401 },
    )
  );
  try {
    await addProvider(t, "echo", `${echo.origin}/v1`);
    const probe = await t.json("/dashboard/api/providers/echo/test", body("POST", { model: "m" }));
    const message = (probe.body as { message: string }).message;
    assertStringIncludes(message, "HTTP 401");
    assert(!message.includes("sk-secret-echo"), message);
    assertStringIncludes(message, "[redacted]");
    const fetched = await t.json(
      "/dashboard/api/providers/fetch-models",
      body("POST", { provider_id: "echo" }),
    );
    assertEquals(fetched.status, 502);
    assert(!JSON.stringify(fetched.body).includes("sk-secret-echo"));
  } finally {
    await echo.close();
  }
});
