import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import type { GatewayWarning, Message } from "../../src/model/mod.ts";
import {
  IMAGE_PLACEHOLDER,
  imagesToPrefetch,
  isPrivateHost,
  type PrefetchDeps,
  prefetchImages,
  stripUnsupportedImages,
} from "../../src/adjustments/mod.ts";
import { isPublicAddress } from "../../src/security/ip_ranges.ts";
import { request, target } from "./fixtures.ts";

function withImage(url: string): Message {
  return {
    role: "user",
    parts: [{ kind: "text", text: "what is this?" }, { kind: "image", source: { type: "url", url } }],
  };
}

Deno.test("stripUnsupportedImages() replaces images with a placeholder when the model has no vision", () => {
  const out = stripUnsupportedImages(
    request([withImage("https://example.com/a.png")]),
    target("deepseek-chat", "chat_completions"),
  );
  assertEquals(out.messages[0].parts[1], { kind: "text", text: IMAGE_PLACEHOLDER });
});

Deno.test("stripUnsupportedImages() reports the images the model never saw as dropped_part:image", () => {
  const warnings: GatewayWarning[] = [];
  const input = request([withImage("https://example.com/a.png")]);
  stripUnsupportedImages(input, target("deepseek-chat", "chat_completions"), (w) => warnings.push(w));
  assertEquals(warnings.map((w) => w.code), ["dropped_part:image"]);
  stripUnsupportedImages(input, target("gpt-4o", "chat_completions"), (w) => warnings.push(w));
  assertEquals(warnings.length, 1);
});

Deno.test("stripUnsupportedImages() keeps images when vision is unknown or supported", () => {
  const input = request([withImage("https://example.com/a.png")]);
  assert(stripUnsupportedImages(input, target("mystery-model", "chat_completions")) === input);
  assert(stripUnsupportedImages(input, target("gpt-4o", "chat_completions")) === input);
});

Deno.test("imagesToPrefetch() lists http(s) image URLs only for targets that need inline data", () => {
  const input = request([withImage("https://example.com/a.png"), withImage("data:image/png;base64,AAAA")]);
  assertEquals(imagesToPrefetch(input, target("gemini-2.5-flash", "generate_content")), [
    "https://example.com/a.png",
  ]);
  assertEquals(imagesToPrefetch(input, target("llava", "local_runner")), ["https://example.com/a.png"]);
  assertEquals(imagesToPrefetch(input, target("gpt-4o", "chat_completions")), []);
});

/** The `get` of PrefetchDeps: tests answer it without a network. */
type Get = PrefetchDeps["get"];

function imageFetch(calls: string[], type = "image/png", body = new Uint8Array([1, 2, 3])): Get {
  return (url) => {
    calls.push(url.href);
    return Promise.resolve(new Response(body, { headers: { "content-type": type } }));
  };
}

/** Deps with `example.com` resolving to a public address and the default public-only rule. */
function deps(get: Get, allowPrivate = false): PrefetchDeps {
  return {
    get,
    resolve: (host) => Promise.resolve(host === "localhost" ? ["127.0.0.1"] : ["93.184.216.34"]),
    isAllowedAddress: allowPrivate ? () => true : (address) => isPublicAddress(address),
  };
}

Deno.test("prefetchImages() inlines a fetched image as base64 with its media type", async () => {
  const calls: string[] = [];
  const input = request([withImage("https://example.com/a.png")]);
  const { request: out, failures } = await prefetchImages(
    input,
    ["https://example.com/a.png"],
    deps(imageFetch(calls)),
  );
  assertEquals(failures, []);
  assertEquals(out.messages[0].parts[1], {
    kind: "image",
    source: { type: "base64", mediaType: "image/png", data: "AQID" },
  });
});

Deno.test("prefetchImages() refuses private and loopback addresses unless they are allowed", async () => {
  const urls = [
    "http://127.0.0.1/a.png",
    "http://localhost:8080/a.png",
    "http://[::1]/a.png",
    "http://10.1.2.3/a.png",
  ];
  for (const url of urls) {
    const calls: string[] = [];
    const input = request([withImage(url)]);
    const { request: out, failures } = await prefetchImages(input, [url], deps(imageFetch(calls)));
    assertEquals(calls, [], url);
    assert(out === input);
    assertStringIncludes(failures[0].reason, "private or loopback");
  }
  const calls: string[] = [];
  const { failures } = await prefetchImages(
    request([withImage(urls[0])]),
    [urls[0]],
    deps(imageFetch(calls), true),
  );
  assertEquals([calls.length, failures.length], [1, 0]);
});

Deno.test("prefetchImages() checks every redirect hop against the private-address rule", async () => {
  const calls: string[] = [];
  const get: Get = (url) => {
    calls.push(url.href);
    return Promise.resolve(
      new Response(null, { status: 302, headers: { location: "http://169.254.169.254/meta" } }),
    );
  };
  const { failures } = await prefetchImages(request([withImage("https://example.com/a.png")]), [
    "https://example.com/a.png",
  ], deps(get));
  assertEquals(calls, ["https://example.com/a.png"]);
  assertStringIncludes(failures[0].reason, "169.254.169.254");
});

Deno.test("prefetchImages() leaves the URL in place for non-images, oversize bodies and errors", async () => {
  const url = "https://example.com/a.png";
  const cases: { get: Get; maxBytes?: number; reason: string }[] = [
    { get: imageFetch([], "text/html"), reason: "not an image" },
    { get: imageFetch([], "image/png", new Uint8Array(100)), maxBytes: 10, reason: "larger than 10 bytes" },
    { get: () => Promise.reject(new TypeError("connection refused")), reason: "connection refused" },
    { get: () => Promise.resolve(new Response("", { status: 404 })), reason: "HTTP 404" },
  ];
  for (const c of cases) {
    const input = request([withImage(url)]);
    const { request: out, failures } = await prefetchImages(input, [url], {
      ...deps(c.get),
      maxBytes: c.maxBytes,
    });
    assert(out === input);
    assertStringIncludes(failures[0].reason, c.reason);
  }
});

Deno.test("isPrivateHost() judges literal hosts and lets public ones through", () => {
  for (
    const url of [
      "http://192.168.1.1",
      "http://172.20.0.1",
      "http://0.0.0.0",
      "http://[fe80::1]",
      "http://[::ffff:127.0.0.1]",
      "http://app.localhost",
    ]
  ) {
    assert(isPrivateHost(new URL(url)), url);
  }
  for (
    const url of ["https://example.com", "http://8.8.8.8", "http://172.32.0.1", "http://[2606:4700::1111]"]
  ) {
    assert(!isPrivateHost(new URL(url)), url);
  }
});
