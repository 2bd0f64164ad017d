/**
 * The outbound guard of key checks. Name resolution is injected and so is `fetch` (a recorder that answers
 * from a script), so no test sends anything anywhere: the guard's decisions are observed by which URLs the
 * recorder was asked for. Only the last test talks to a real server, on loopback.
 */
import { assert, assertEquals, assertRejects } from "../helpers/assert.ts";
import { guardedFetch, RefusedTarget } from "../../src/inventory/guarded_fetch.ts";

const PUBLIC = "93.184.216.34";

/** Host → addresses; unknown hosts do not resolve. Records every lookup. */
function resolver(table: Record<string, string[]>) {
  const asked: string[] = [];
  return { asked, resolve: (host: string) => (asked.push(host), Promise.resolve(table[host] ?? [])) };
}

/** A fetch that records URLs and answers from `answer(url)`; it never opens a connection. */
function recorder(answer: (url: string) => Response) {
  const urls: string[] = [];
  const fetchImpl = ((input: URL | string, init?: RequestInit) => {
    urls.push(String(input));
    assertEquals(init?.redirect, "manual", "redirects are never followed by fetch itself");
    return Promise.resolve(answer(String(input)));
  }) as typeof fetch;
  return { urls, fetch: fetchImpl };
}

const GET = { method: "GET" as const, headers: {} };
const redirect = (to: string) => new Response(null, { status: 302, headers: { location: to } });

Deno.test("guardedFetch() refuses private, loopback, link-local and CGNAT addresses before any call", async () => {
  const targets: Record<string, string[]> = {
    "ten.example": ["10.1.2.3"],
    "loop.example": ["127.0.0.1"],
    "meta.example": ["169.254.169.254"],
    "cgnat.example": ["100.64.0.9"],
    "v6loop.example": ["::1"],
    "mapped.example": ["::ffff:127.0.0.1"],
    "ula.example": ["fd00::1"],
    "mixed.example": [PUBLIC, "192.168.1.1"],
  };
  const { resolve } = resolver(targets);
  const rec = recorder(() => new Response("ok"));
  const check = guardedFetch({ allowPrivate: false, timeoutMs: 1000, resolve, fetch: rec.fetch });
  for (const host of Object.keys(targets)) {
    const error = await assertRejects(() => check(`https://${host}/v1/models`, GET), RefusedTarget);
    assert(error.message.includes("allow_private_targets"), host);
  }
  await assertRejects(() => check("https://nowhere.example/", GET), RefusedTarget, "does not resolve");
  await assertRejects(() => check("ftp://files.example/", GET), RefusedTarget, "only http and https");
  await assertRejects(() => check(`https://user:pw@${PUBLIC}/`, GET), RefusedTarget, "credentials");
  assertEquals(rec.urls, [], "nothing was sent");
});

Deno.test("guardedFetch() calls public targets and re-checks every redirect hop", async () => {
  const { resolve, asked } = resolver({
    "api.example": [PUBLIC],
    "cdn.example": ["8.8.8.8"],
    "internal.example": ["10.0.0.7"],
  });
  const rec = recorder((url) => {
    if (url === "https://api.example/to-internal") return redirect("http://internal.example/admin");
    if (url === "https://api.example/to-cdn") return redirect("https://cdn.example/models");
    if (url === "https://api.example/loop") return redirect("/loop");
    return Response.json({ data: [] }, { headers: { "x-ratelimit-limit-requests": "9" } });
  });
  const check = guardedFetch({ allowPrivate: false, timeoutMs: 1000, resolve, fetch: rec.fetch });

  const ok = await check("https://api.example/to-cdn", GET);
  assertEquals([ok.status, ok.text, ok.headers.get("x-ratelimit-limit-requests")], [200, '{"data":[]}', "9"]);
  assertEquals(rec.urls, ["https://api.example/to-cdn", "https://cdn.example/models"]);
  assertEquals(asked, ["api.example", "cdn.example"], "each hop's host was resolved and checked");

  rec.urls.length = 0;
  await assertRejects(() => check("https://api.example/to-internal", GET), RefusedTarget, "10.0.0.7");
  assertEquals(rec.urls, ["https://api.example/to-internal"], "the private hop was never called");

  rec.urls.length = 0;
  await assertRejects(() => check("https://api.example/loop", GET), RefusedTarget, "more than 3 redirects");
  assertEquals(rec.urls.length, 4, "the first call and three redirects, then refused");
});

Deno.test("guardedFetch(): allow_private_targets skips the address check; bodies are capped; the timeout holds", async () => {
  const { resolve, asked } = resolver({});
  const big = "x".repeat(3 * 1024 * 1024);
  const rec = recorder(() => new Response(big));
  const open = guardedFetch({ allowPrivate: true, timeoutMs: 1000, resolve, fetch: rec.fetch });
  const answer = await open("http://10.0.0.1/v1/models", GET);
  assertEquals(answer.text.length, 1024 * 1024, "read up to 1 MiB");
  assertEquals(asked, [], "no lookup when private targets are allowed");
  await assertRejects(() => open("file:///etc/passwd", GET), RefusedTarget, "only http and https");

  const hanging = ((_input: URL | string, init?: RequestInit) =>
    new Promise<Response>((_resolve, reject) => {
      init?.signal?.addEventListener("abort", () => reject(init.signal!.reason));
    })) as typeof fetch;
  const slow = guardedFetch({ allowPrivate: true, timeoutMs: 50, resolve, fetch: hanging });
  const started = Date.now();
  const error = await assertRejects(() => slow("http://10.0.0.1/", GET));
  assertEquals((error as Error).name, "TimeoutError");
  // Only the 50 ms timeout ends a hanging fetch; the bound is loose so a busy machine cannot break it.
  assert(Date.now() - started < 5_000);
});

Deno.test("guardedFetch() with the system resolver refuses a loopback server that is really listening", async () => {
  const controller = new AbortController();
  let hits = 0;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: controller.signal, onListen() {} },
    () => {
      hits++;
      return new Response("should not be reached");
    },
  );
  try {
    const url = `http://127.0.0.1:${server.addr.port}/v1/models`;
    const guarded = guardedFetch({ allowPrivate: false, timeoutMs: 2000 });
    await assertRejects(() => guarded(url, GET), RefusedTarget, "127.0.0.1");
    assertEquals(hits, 0);
    const allowed = guardedFetch({ allowPrivate: true, timeoutMs: 2000 });
    assertEquals((await allowed(url, GET)).status, 200);
    assertEquals(hits, 1);
  } finally {
    controller.abort();
    await server.finished;
  }
});

Deno.test("guardedFetch() calls a trusted origin on a private address, and guards a redirect off it again", async () => {
  const { resolve } = resolver({ "vllm.lan": ["10.0.0.5"], "other.lan": ["10.0.0.6"] });
  const rec = recorder((url) =>
    url.includes("/hop") ? redirect("http://other.lan/v1/models") : new Response("ok")
  );
  const check = guardedFetch({ allowPrivate: false, timeoutMs: 1000, resolve, fetch: rec.fetch });
  const trusted = { ...GET, trustedOrigin: "http://vllm.lan:8000" };
  assertEquals((await check("http://vllm.lan:8000/v1/models", trusted)).text, "ok");
  // Another port is another origin: not trusted.
  await assertRejects(() => check("http://vllm.lan:9000/v1/models", trusted), RefusedTarget);
  await assertRejects(() => check("http://vllm.lan:8000/hop", trusted), RefusedTarget, "other.lan");
  assertEquals(rec.urls, ["http://vllm.lan:8000/v1/models", "http://vllm.lan:8000/hop"]);
});
