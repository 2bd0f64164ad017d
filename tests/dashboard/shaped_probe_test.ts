/**
 * Fetch Models and Test Connection of the kinds whose calls are shaped from the stored credential (Kiro,
 * Google Cloud Code), through the dashboard API of a real gateway: only the access token leaves the
 * gateway, a due credential is refreshed and written back first, Cloud Code finds its project, and Kiro's
 * model list and 200 streams are read the way the upstream writes them.
 */
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { kiroEvent, kiroException } from "../helpers/event_stream_encode.ts";
import { splitEventStream } from "../helpers/kiro_wire.ts";
import { chatCompletion } from "../helpers/chat_fixtures.ts";
import { ADMIN_KEY, body } from "./dashboard_helpers.ts";
import { waitFor } from "../helpers/wait.ts";

type Json = Record<string, unknown>;

/** One request the mock saw. */
interface Seen {
  readonly path: string;
  readonly search: URLSearchParams;
  readonly authorization: string | null;
  readonly body: string;
}

/** A loopback upstream with a Google-style and a Kiro-style token endpoint; `route` answers the API calls. */
function upstream(route: (path: string, seen: Seen, all: Seen[]) => Response | undefined) {
  const seen: Seen[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const url = new URL(request.url);
    const entry = {
      path: url.pathname,
      search: url.searchParams,
      authorization: request.headers.get("authorization"),
      body: await request.text(),
    };
    seen.push(entry);
    if (url.pathname === "/google/token") {
      return Response.json({ access_token: "goog-fresh", expires_in: 3599, token_type: "Bearer" });
    }
    if (url.pathname === "/kiro/refreshToken") {
      return Response.json({ accessToken: "kiro-fresh", expiresIn: 3600 });
    }
    return route(url.pathname, entry, seen) ??
      Response.json({ message: `no route ${url.pathname}` }, { status: 404 });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, seen, close: () => server.shutdown() };
}

const EXPIRED = 1_000_000_000;
const GOOGLE_ANSWER = {
  response: { candidates: [{ content: { role: "model", parts: [{ text: "hi" }] }, finishReason: "STOP" }] },
};

function providerYaml(id: string, apiType: string, base: string, blob: unknown, oauth: string): string {
  return `  - id: ${id}\n    prefix: ${id}\n    api_type: ${apiType}\n    base_url: "${base}"\n` +
    `    api_key: '${JSON.stringify(blob)}'\n    models: [m1]\n    oauth: ${oauth}\n`;
}

async function gateway(providers: string): Promise<TestGateway> {
  return await startTestGateway(
    `providers:\n${providers}api_keys:\n  - key: ${ADMIN_KEY}\n    client_key_label: admin\n`,
  );
}

async function api(
  gw: TestGateway,
  path: string,
  init: RequestInit,
): Promise<{ status: number; body: Json }> {
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${ADMIN_KEY}`);
  const response = await fetch(`${gw.url}${path}`, { ...init, headers });
  return { status: response.status, body: await response.json() };
}

function storedBlob(gw: TestGateway, id: string): Json {
  return JSON.parse(gw.runtime.control.providers.find((p) => p.id === id)!.apiKey);
}

const KIRO_BLOB = {
  accessToken: "kiro-stale",
  refreshToken: "kiro-refresh",
  expiresAt: EXPIRED,
  profileArn: "arn:aws:codewhisperer:us-east-1:1:profile/P",
};

Deno.test("Kiro Fetch Models: refreshed first, only `Bearer <access token>` sent, origin=AI_EDITOR asked, modelId read", async () => {
  const mock = upstream((path, seen) => {
    if (path !== "/ListAvailableModels") return undefined;
    if (seen.authorization !== "Bearer kiro-fresh") {
      return Response.json({ message: "denied" }, { status: 403 });
    }
    return Response.json(
      seen.search.get("nextToken") === "page-2" ? { models: [{ modelId: "auto", modelName: "Auto" }] } : {
        models: [{ modelId: "claude-sonnet-4.5" }, { modelId: "claude-haiku-4.5" }],
        nextToken: "page-2",
      },
    );
  });
  const gw = await gateway(
    providerYaml(
      "kiro",
      "cloud_assistant_oauth",
      mock.url,
      KIRO_BLOB,
      `{token_url: "${mock.url}/kiro/refreshToken"}`,
    ),
  );
  try {
    const fetched = await api(
      gw,
      "/dashboard/api/providers/fetch-models",
      body("POST", { provider_id: "kiro" }),
    );
    assertEquals(fetched.status, 200, JSON.stringify(fetched.body));
    assertEquals(fetched.body.models, ["auto", "claude-haiku-4.5", "claude-sonnet-4.5"]);
    const lists = mock.seen.filter((s) => s.path === "/ListAvailableModels");
    assertEquals(lists.map((s) => s.authorization), ["Bearer kiro-fresh", "Bearer kiro-fresh"]);
    assertEquals(lists[0].search.get("origin"), "AI_EDITOR");
    assertEquals(lists[0].search.get("profileArn"), KIRO_BLOB.profileArn);
    // The refreshed credential was written back, so the next request does not spend the token again.
    assertEquals(storedBlob(gw, "kiro").access_token, "kiro-fresh");
    assertEquals(mock.seen.filter((s) => s.path === "/kiro/refreshToken").length, 1);
  } finally {
    await gw.stop();
    await mock.close();
  }
});

Deno.test("Kiro Test Connection: hosts in order (403 moves on), and a 200 stream that carries an exception fails", async () => {
  let healthy = false;
  const mock = upstream((path) => {
    if (path === "/generateAssistantResponse") {
      return Response.json({ message: "origin mismatch" }, { status: 403 });
    }
    if (path !== "/") return undefined;
    return splitEventStream(
      healthy
        ? [kiroEvent("assistantResponseEvent", { content: "pong" })]
        : [kiroException("ThrottlingException", "too many requests for this pool")],
      7,
    );
  });
  const fresh = { ...KIRO_BLOB, accessToken: "kiro-live", expiresAt: Math.floor(Date.now() / 1000) + 3600 };
  const gw = await gateway(providerYaml("kiro", "cloud_assistant_oauth", mock.url, fresh, "{}"));
  try {
    const failed = await api(gw, "/dashboard/api/providers/kiro/test", body("POST", { model: "m1" }));
    assertEquals(failed.body.ok, false);
    assertStringIncludes(String(failed.body.message), "too many requests for this pool");
    assertEquals(mock.seen.map((s) => [s.path, s.authorization]), [
      ["/generateAssistantResponse", "Bearer kiro-live"],
      ["/", "Bearer kiro-live"],
    ]);
    healthy = true;
    const passed = await api(gw, "/dashboard/api/providers/kiro/test", body("POST", { model: "m1" }));
    assertEquals([passed.body.ok, passed.body.status], [true, 200], JSON.stringify(passed.body));
  } finally {
    await gw.stop();
    await mock.close();
  }
});

Deno.test("Cloud Code Fetch Models and Test Connection: refreshed, project discovered and stored, quota reaches routing", async () => {
  const reset = new Date(Date.now() + 3_600_000).toISOString();
  const mock = upstream((path, seen) => {
    if (seen.authorization !== "Bearer goog-fresh") return Response.json({ error: "stale" }, { status: 401 });
    if (path === "/v1internal:loadCodeAssist") return Response.json({ cloudaicompanionProject: "proj-7" });
    if (path === "/v1internal:fetchAvailableModels") {
      return Response.json({
        models: {
          "gemini-2.5-pro": { quotaInfo: { remainingFraction: 0.25, resetTime: reset } },
          "gemini-2.5-flash": { quotaInfo: { remainingFraction: 1, resetTime: reset } },
          "internal-x": { isInternal: true },
        },
      });
    }
    if (path === "/v1internal:generateContent") return Response.json(GOOGLE_ANSWER);
    return undefined;
  });
  const blob = { access_token: "goog-stale", refresh_token: "goog-refresh", expires_at: EXPIRED };
  const oauth = `{token_url: "${mock.url}/google/token", client_id: app-id, client_secret: app-secret}`;
  const gw = await gateway(providerYaml("gcli", "cli_oauth", mock.url, blob, oauth));
  try {
    const fetched = await api(
      gw,
      "/dashboard/api/providers/fetch-models",
      body("POST", { provider_id: "gcli" }),
    );
    assertEquals(fetched.status, 200, JSON.stringify(fetched.body));
    assertEquals(fetched.body.models, ["gemini-2.5-flash", "gemini-2.5-pro"]);
    const list = mock.seen.find((s) => s.path === "/v1internal:fetchAvailableModels")!;
    assertEquals(JSON.parse(list.body), { project: "proj-7" });
    assertEquals(storedBlob(gw, "gcli").extra, {
      project_id: "proj-7",
      obtained_at: (storedBlob(gw, "gcli").extra as Json).obtained_at,
    });
    assertEquals(storedBlob(gw, "gcli").access_token, "goog-fresh");

    const probe = await api(gw, "/dashboard/api/providers/gcli/test", body("POST", { model: "m1" }));
    assertEquals(probe.body.ok, true, JSON.stringify(probe.body));
    const call = mock.seen.find((s) => s.path === "/v1internal:generateContent")!;
    assertEquals(JSON.parse(call.body).project, "proj-7");
    // One refresh and one discovery for all of it; no call ever carried the stored blob.
    assertEquals(mock.seen.filter((s) => s.path === "/google/token").length, 1);
    assertEquals(mock.seen.filter((s) => s.path === "/v1internal:loadCodeAssist").length, 1);
    assert(mock.seen.every((s) => !(s.authorization ?? "").includes("refresh")));

    const routing = await api(gw, "/dashboard/api/v2/state/routing", { method: "GET" });
    const prefix = ((routing.body.data as Json).prefixes as Json[]).find((p) => p.prefix === "gcli")!;
    const windows = ((prefix.accounts as Json[])[0].quota as Json).windows as Json[];
    assertEquals(windows.map((w) => [w.id, w.headroom]), [["cloudcode_gemini-2.5-pro", 0.25]]);
  } finally {
    await gw.stop();
    await mock.close();
  }
});

Deno.test("Cloud Code quota is read while the account is used (oauth.usage_url) and reaches the routing state", async () => {
  const mock = upstream((path) => {
    if (path === "/quota") {
      return Response.json({
        models: { "gemini-2.5-pro": { quotaInfo: { resetTime: "2099-01-01T00:00:00Z" } } },
      });
    }
    if (path === "/v1internal:generateContent") return Response.json(GOOGLE_ANSWER);
    return undefined;
  });
  const blob = { access_token: "goog-live", extra: { project_id: "p1" } };
  const gw = await gateway(
    providerYaml("gcli", "cli_oauth", mock.url, blob, `{usage_url: "${mock.url}/quota"}`),
  );
  try {
    const response = await fetch(`${gw.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "gcli/m1", messages: [{ role: "user", content: "hi" }] }),
    });
    assertEquals(response.status, 200, await response.text());
    let windows: Json[] = [];
    await waitFor(async () => {
      const routing = await api(gw, "/dashboard/api/v2/state/routing", { method: "GET" });
      const prefix = ((routing.body.data as Json).prefixes as Json[]).find((p) => p.prefix === "gcli")!;
      windows = (((prefix.accounts as Json[])[0].quota as Json | null)?.windows as Json[] | undefined) ?? [];
      return windows.length > 0;
    }, { what: "the quota windows in the routing state", intervalMs: 20 });
    // A pool the answer leaves without a fraction (proto3 drops zeros) is empty until its reset.
    assertEquals(windows.map((w) => [w.id, w.headroom, w.rejected]), [["cloudcode_gemini-2.5-pro", 0, true]]);
    const quota = mock.seen.find((s) => s.path === "/quota")!;
    assertEquals([quota.authorization, JSON.parse(quota.body)], ["Bearer goog-live", { project: "p1" }]);
  } finally {
    await gw.stop();
    await mock.close();
  }
});

Deno.test("Fetch Models of an unsaved credential: used as it is (no refresh spent), an expired one says to save first", async () => {
  const mock = upstream((path, seen) => {
    if (path === "/ListAvailableModels" && seen.authorization === "Bearer typed-in") {
      return Response.json({ models: [{ modelId: "claude-sonnet-4.5" }] });
    }
    if (path === "/v1internal:fetchAvailableModels" && seen.authorization === "Bearer typed-goog") {
      return Response.json({ models: { "gemini-2.5-pro": {} } });
    }
    if (path === "/v1internal:loadCodeAssist") return Response.json({ cloudaicompanionProject: "proj-u" });
    return undefined;
  });
  const gw = await gateway(
    // Another provider must exist for the gateway to start; the unsaved one is typed into the form.
    providerYaml("other", "chat_compat", `${mock.url}/v1`, "sk", "{}"),
  );
  const soon = Math.floor(Date.now() / 1000) + 60; // inside the 5-minute refresh lead
  try {
    const kiro = await api(
      gw,
      "/dashboard/api/providers/fetch-models",
      body("POST", {
        api_type: "cloud_assistant_oauth",
        base_url: mock.url,
        api_key: JSON.stringify({ accessToken: "typed-in", refreshToken: "rt", expiresAt: soon }),
      }),
    );
    assertEquals([kiro.status, kiro.body.models], [200, ["claude-sonnet-4.5"]], JSON.stringify(kiro.body));
    const google = await api(
      gw,
      "/dashboard/api/providers/fetch-models",
      body("POST", {
        api_type: "cli_oauth",
        base_url: mock.url,
        api_key: JSON.stringify({ access_token: "typed-goog", refresh_token: "rt", expires_at: soon }),
      }),
    );
    assertEquals([google.status, google.body.models], [200, ["gemini-2.5-pro"]], JSON.stringify(google.body));
    assertEquals(JSON.parse(mock.seen.find((s) => s.path === "/v1internal:fetchAvailableModels")!.body), {
      project: "proj-u",
    });
    const expired = await api(
      gw,
      "/dashboard/api/providers/fetch-models",
      body("POST", {
        api_type: "cloud_assistant_oauth",
        base_url: mock.url,
        api_key: JSON.stringify({ accessToken: "typed-in", refreshToken: "rt", expiresAt: EXPIRED }),
      }),
    );
    assertEquals(expired.status, 502);
    const message = JSON.stringify(expired.body);
    assertStringIncludes(message, "save the provider first");
    assert(!message.includes("deleted"), message);
    assert(mock.seen.every((s) => !s.path.includes("token")), "no refresh token was spent");
  } finally {
    await gw.stop();
    await mock.close();
  }
});

Deno.test("a chat provider's Test Connection is unchanged (sanity for the shared probe)", async () => {
  const mock = upstream((path) =>
    path === "/v1/chat/completions" ? Response.json(chatCompletion("ok")) : undefined
  );
  const gw = await gateway(providerYaml("plain", "chat_compat", `${mock.url}/v1`, "sk-plain", "{}"));
  try {
    const probe = await api(gw, "/dashboard/api/providers/plain/test", body("POST", { model: "m1" }));
    assertEquals(probe.body.ok, true, JSON.stringify(probe.body));
  } finally {
    await gw.stop();
    await mock.close();
  }
});

Deno.test("provider API: a configured Cloud project is called without discovery, a Kiro region is kept, each only for its kinds", async () => {
  const mock = upstream((path) =>
    path === "/v1internal:generateContent" ? Response.json(GOOGLE_ANSWER) : undefined
  );
  const gw = await gateway(providerYaml("other", "chat_compat", `${mock.url}/v1`, "sk", "{}"));
  try {
    const created = await api(
      gw,
      "/dashboard/api/providers",
      body("POST", {
        id: "gcli",
        prefix: "gcli",
        api_type: "cli_oauth",
        base_url: mock.url,
        api_key: JSON.stringify({ access_token: "goog-live" }),
        models: ["m1"],
        project: "configured-proj",
      }),
    );
    assertEquals([created.status, (created.body.provider as Json).project], [201, "configured-proj"]);
    const probe = await api(gw, "/dashboard/api/providers/gcli/test", body("POST", { model: "m1" }));
    assertEquals(probe.body.ok, true, JSON.stringify(probe.body));
    assertEquals(mock.seen.map((s) => s.path), ["/v1internal:generateContent"], "no loadCodeAssist");
    assertEquals(JSON.parse(mock.seen[0].body).project, "configured-proj");
    // The credential itself is left as it was: clearing the setting brings discovery back.
    assertEquals(storedBlob(gw, "gcli").extra, undefined);

    const kiro = await api(
      gw,
      "/dashboard/api/providers",
      body("POST", {
        id: "kiro",
        prefix: "kiro",
        api_type: "cloud_assistant_oauth",
        base_url: "https://runtime.us-east-1.kiro.dev",
        region: "eu-central-1",
      }),
    );
    assertEquals([kiro.status, (kiro.body.provider as Json).region], [201, "eu-central-1"]);
    const cleared = await api(gw, "/dashboard/api/providers/kiro", body("PUT", { region: "" }));
    assertEquals([cleared.status, (cleared.body.provider as Json).region], [200, null]);

    const wrongKind = await api(
      gw,
      "/dashboard/api/providers/other",
      body("PUT", { region: "eu-central-1" }),
    );
    assertEquals([wrongKind.status, (wrongKind.body.error as Json).field], [400, "region"]);
    const badRegion = await api(gw, "/dashboard/api/providers/kiro", body("PUT", { region: "mars-1" }));
    assertEquals([badRegion.status, (badRegion.body.error as Json).field], [400, "region"]);
    assertStringIncludes(JSON.stringify(badRegion.body), "AWS region such as eu-central-1");
  } finally {
    await gw.stop();
    await mock.close();
  }
});
