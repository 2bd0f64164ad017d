import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import type { Message, NeutralRequest } from "../../src/model/mod.ts";
import { type PrefetchDeps, prefetchImages, systemPrefetchDeps } from "../../src/adjustments/mod.ts";

const PNG = new Uint8Array([137, 80, 78, 71, 1, 2, 3]);

function askWith(url: string): NeutralRequest {
  const message: Message = {
    role: "user",
    parts: [{ kind: "text", text: "what is this?" }, { kind: "image", source: { type: "url", url } }],
  };
  return {
    model: "g/m",
    system: [],
    messages: [message],
    tools: [],
    params: {},
    stream: false,
    source: "chat_completions",
  };
}

/** A loopback server that records what reached it; `reply` decides the answer. */
interface Target {
  readonly port: number;
  readonly hits: string[];
  close(): Promise<void>;
}

function serve(reply: (request: Request) => Response, tls?: { cert: string; key: string }): Target {
  const hits: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {}, ...tls }, (request) => {
    hits.push(`${request.headers.get("host")}${new URL(request.url).pathname}`);
    return reply(request);
  });
  return { port: server.addr.port, hits, close: () => server.shutdown() };
}

const image = () => new Response(PNG, { headers: { "content-type": "image/png" } });

async function inlined(url: string, deps: PrefetchDeps): Promise<{ data?: string; reason?: string }> {
  const { request, failures } = await prefetchImages(askWith(url), [url], deps);
  const part = request.messages[0].parts[1];
  return {
    data: part.kind === "image" && part.source.type === "base64" ? part.source.data : undefined,
    reason: failures[0]?.reason,
  };
}

Deno.test("image prefetch refuses a loopback target by address and by a name that resolves to it, unless allowed", async () => {
  const target = serve(image);
  try {
    for (const url of [`http://127.0.0.1:${target.port}/a.png`, `http://localhost:${target.port}/a.png`]) {
      const refused = await inlined(url, systemPrefetchDeps({ allowPrivateTargets: false }));
      assertEquals(refused.data, undefined, url);
      assertStringIncludes(refused.reason ?? "", "private or loopback", url);
      assertStringIncludes(refused.reason ?? "", "server.allow_private_image_urls", url);
    }
    assertEquals(target.hits, [], "a refused target is never connected to");
    const allowed = await inlined(
      `http://localhost:${target.port}/a.png`,
      systemPrefetchDeps({ allowPrivateTargets: true }),
    );
    assertEquals(allowed.data, btoa(String.fromCharCode(...PNG)));
    assertEquals(target.hits, [`localhost:${target.port}/a.png`]);
  } finally {
    await target.close();
  }
});

Deno.test("image prefetch refuses a redirect from an allowed target to a loopback one at that hop", async () => {
  const sink = serve(image);
  const publicLooking = serve((request) => {
    const to = new URL(request.url).pathname === "/by-name" ? "localhost" : "127.0.0.1";
    return new Response(null, { status: 302, headers: { location: `http://${to}:${sink.port}/secret.png` } });
  });
  // On loopback everything is private, so one port plays the public internet.
  const deps = systemPrefetchDeps({
    allowPrivateTargets: false,
    isAllowedAddress: (_address, port) => port === publicLooking.port,
  });
  try {
    for (const path of ["/by-address", "/by-name"]) {
      const result = await inlined(`http://127.0.0.1:${publicLooking.port}${path}`, deps);
      assertEquals(result.data, undefined);
      assertStringIncludes(result.reason ?? "", `:${sink.port}: it is a private or loopback address`);
    }
    assertEquals(publicLooking.hits.length, 2);
    assertEquals(sink.hits, [], "the redirect target is never connected to");
  } finally {
    await sink.close();
    await publicLooking.close();
  }
});

Deno.test("image prefetch connects to the address it checked, not to a second lookup (DNS rebinding)", async () => {
  const target = serve(image);
  let lookups = 0;
  const deps: PrefetchDeps = {
    ...systemPrefetchDeps({ allowPrivateTargets: false }),
    // The first answer is checked and used; a rebinding resolver would answer differently next time.
    resolve: () => Promise.resolve(lookups++ === 0 ? ["127.0.0.1"] : ["10.0.0.1"]),
    isAllowedAddress: (address, port) => address === "127.0.0.1" && port === target.port,
  };
  try {
    const result = await inlined(`http://images.example.test:${target.port}/cat.png`, deps);
    assertEquals(result.reason, undefined);
    assert(result.data !== undefined);
    assertEquals(lookups, 1);
    assertEquals(target.hits, [`images.example.test:${target.port}/cat.png`]);
    const mixed: PrefetchDeps = { ...deps, resolve: () => Promise.resolve(["127.0.0.1", "10.0.0.1"]) };
    const refused = await inlined(`http://mixed.example.test:${target.port}/cat.png`, mixed);
    assertStringIncludes(refused.reason ?? "", "private or loopback");
  } finally {
    await target.close();
  }
});

Deno.test("image prefetch over https pinned to an address still verifies the certificate for the URL's name", async () => {
  const fixture = (name: string) =>
    Deno.readTextFileSync(new URL(`../fixtures/tls/${name}`, import.meta.url));
  // A chunked body (a stream) exercises the chunked decoder of the pinned client.
  const target = serve(
    () =>
      new Response(ReadableStream.from([PNG.subarray(0, 3), PNG.subarray(3)]), {
        headers: { "content-type": "image/png" },
      }),
    { cert: fixture("cert.pem"), key: fixture("key.pem") },
  );
  const deps = (caCerts: string[]) => ({
    ...systemPrefetchDeps({ allowPrivateTargets: true, caCerts }),
    resolve: () => Promise.resolve(["127.0.0.1"]),
  });
  try {
    const ok = await inlined(`https://localhost:${target.port}/a.png`, deps([fixture("ca.pem")]));
    assertEquals(ok.data, btoa(String.fromCharCode(...PNG)));
    const wrongName = await inlined(
      `https://not-in-the-cert.test:${target.port}/a.png`,
      deps([fixture("ca.pem")]),
    );
    assertEquals(wrongName.data, undefined);
    assert(wrongName.reason !== undefined);
  } finally {
    await target.close();
  }
});
