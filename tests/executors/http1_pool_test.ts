import { Http1Pool, originOf } from "../../src/executors/http1_pool.ts";
import { Http1ProtocolError } from "../../src/executors/http1_wire.ts";
import { ProviderClient } from "../../src/executors/http_clients.ts";
import { usesEnvProxy } from "../../src/executors/proxy_env.ts";
import { GATEWAY_VERSION } from "../../src/version.ts";
import { waitFor } from "../helpers/wait.ts";
import { assertEquals, assertRejects, assertStringIncludes } from "../helpers/assert.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** One request as the raw server read it. */
interface RawRequest {
  readonly head: string;
  readonly body: string;
}

/** A server end of one connection, reading requests byte-exactly. */
class Peer {
  #buffer = new Uint8Array(0);
  constructor(readonly conn: Deno.Conn) {}

  /** The next request, or null when the client closed. */
  async request(): Promise<RawRequest | null> {
    for (;;) {
      const text = decoder.decode(this.#buffer);
      const headEnd = text.indexOf("\r\n\r\n");
      if (headEnd !== -1) {
        const head = text.slice(0, headEnd);
        const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? "0");
        const headBytes = encoder.encode(text.slice(0, headEnd + 4)).length;
        if (this.#buffer.length >= headBytes + length) {
          const body = decoder.decode(this.#buffer.subarray(headBytes, headBytes + length));
          this.#buffer = this.#buffer.slice(headBytes + length);
          return { head, body };
        }
      }
      if (!await this.#readMore()) return null;
    }
  }

  /** Reads until a request head has arrived, without waiting for its body. */
  async head(): Promise<string> {
    while (!decoder.decode(this.#buffer).includes("\r\n\r\n")) {
      if (!await this.#readMore()) throw new Error("client closed before a head");
    }
    return decoder.decode(this.#buffer).split("\r\n\r\n")[0];
  }

  /** Appends the next bytes from the client to the buffer; false when it closed. */
  async #readMore(): Promise<boolean> {
    const chunk = new Uint8Array(4096);
    const read = await this.conn.read(chunk).catch(() => null);
    if (read === null) return false;
    const joined = new Uint8Array(this.#buffer.length + read);
    joined.set(this.#buffer);
    joined.set(chunk.subarray(0, read), this.#buffer.length);
    this.#buffer = joined;
    return true;
  }

  async write(text: string | Uint8Array): Promise<void> {
    const bytes = typeof text === "string" ? encoder.encode(text) : text;
    for (let at = 0; at < bytes.length;) at += await this.conn.write(bytes.subarray(at));
  }

  close(): void {
    try {
      this.conn.close();
    } catch {
      // already closed
    }
  }
}

/** A raw TCP server on a free loopback port; `serve` runs once per accepted connection. */
function rawServer(serve: (peer: Peer, index: number) => Promise<void>) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const peers: Peer[] = [];
  const running: Promise<void>[] = [];
  (async () => {
    for await (const conn of listener) {
      const peer = new Peer(conn);
      peers.push(peer);
      running.push(serve(peer, peers.length - 1).catch(() => {}).finally(() => peer.close()));
    }
  })().catch(() => {});
  const url = `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`;
  return {
    url,
    origin: originOf(new URL(url)),
    get connections() {
      return peers.length;
    },
    async close() {
      listener.close();
      for (const peer of peers) peer.close();
      await Promise.allSettled(running);
    },
  };
}

const json = (body: string, extra = "") =>
  `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n${extra}content-length: ${
    encoder.encode(body).length
  }\r\n\r\n${body}`;
const signal = () => new AbortController().signal;
const options = { maxIdle: 4, idleTimeoutMs: 10_000 };

Deno.test("Http1Pool writes one exact request and reuses its connection for the next ones", async () => {
  const seen: RawRequest[] = [];
  const server = rawServer(async (peer) => {
    for (let request = await peer.request(); request !== null; request = await peer.request()) {
      seen.push(request);
      await peer.write(json(`{"echo":${JSON.stringify(request.body)}}`));
    }
  });
  const pool = new Http1Pool(server.origin, options);
  try {
    // 1-, 2-, 3- and 4-byte characters, and a lone surrogate (sent as U+FFFD, 3 bytes): content-length
    // counts what is sent.
    for (const body of ['{"a":1}', '{"text":"héllo ✓"}', "{}", '{"e":"😀\ud800"}']) {
      const response = await pool.post(
        "/v1/chat/completions?x=1",
        { authorization: "Bearer k", "x-extra": "v" },
        body,
        signal(),
      );
      assertEquals(response.status, 200);
      assertEquals(response.header("content-type"), "application/json");
      assertEquals(JSON.parse(await response.text()), { echo: decoder.decode(encoder.encode(body)) });
    }
    assertEquals(server.connections, 1);
    assertEquals(pool.idleCount, 1);
    const lines = seen[1].head.split("\r\n");
    assertEquals(lines[0], "POST /v1/chat/completions?x=1 HTTP/1.1");
    assertEquals(lines.slice(1).sort(), [
      // Identity asked for: the client decodes no content coding.
      "accept-encoding: identity",
      "authorization: Bearer k",
      // Bytes, not characters: "é" and "✓" take 2 and 3.
      `content-length: ${encoder.encode('{"text":"héllo ✓"}').length}`,
      `host: ${server.origin.host}`,
      `user-agent: gateway/${GATEWAY_VERSION}`,
      "x-extra: v",
    ]);
    assertEquals(seen[1].body, '{"text":"héllo ✓"}');
  } finally {
    pool.close();
    await server.close();
  }
});

Deno.test("Http1Pool writes a body given in parts after its head, with their total length, unjoined", async () => {
  const seen: RawRequest[] = [];
  const server = rawServer(async (peer) => {
    for (let request = await peer.request(); request !== null; request = await peer.request()) {
      seen.push(request);
      await peer.write(json("{}"));
    }
  });
  const pool = new Http1Pool(server.origin, options);
  try {
    const parts = ['{"text":"', "héllo ", "✓", '"}'].map((part) => encoder.encode(part));
    for (let i = 0; i < 2; i++) {
      const response = await pool.post("/v1/chat/completions", {}, parts, signal());
      assertEquals(response.status, 200);
      await response.text();
    }
    assertEquals(seen.length, 2);
    for (const request of seen) {
      assertStringIncludes(request.head, `content-length: ${encoder.encode('{"text":"héllo ✓"}').length}`);
      assertEquals(request.body, '{"text":"héllo ✓"}');
    }
    assertEquals(server.connections, 1);
  } finally {
    pool.close();
    await server.close();
  }
});

Deno.test("Http1Pool reads a chunked body written a few bytes at a time, then reuses the connection", async () => {
  const body = "data: " + "x".repeat(3000) + "\n\n" + "data: [DONE]\n\n";
  const server = rawServer(async (peer) => {
    for (let request = await peer.request(); request !== null; request = await peer.request()) {
      await peer.write("HTTP/1.1 100 Continue\r\n\r\n");
      await peer.write(
        "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n",
      );
      const wire = `${(body.length - 14).toString(16)}\r\n${body.slice(0, -14)}\r\ne;ext=1\r\n${
        body.slice(-14)
      }\r\n0\r\n\r\n`;
      for (let at = 0; at < wire.length; at += 7) {
        await peer.write(wire.slice(at, at + 7));
        if (at % 700 === 0) await new Promise((r) => setTimeout(r, 1));
      }
    }
  });
  const pool = new Http1Pool(server.origin, options);
  try {
    for (let round = 0; round < 2; round++) {
      const response = await pool.post("/s", {}, "{}", signal());
      assertEquals(response.status, 200);
      let text = "";
      for (let chunk = await response.read(); chunk !== null; chunk = await response.read()) {
        text += decoder.decode(chunk);
      }
      assertEquals(text, body);
    }
    assertEquals(server.connections, 1);
  } finally {
    pool.close();
    await server.close();
  }
});

Deno.test("Http1Pool does not reuse a connection the body ended by closing, or that said Connection: close", async () => {
  const server = rawServer(async (peer, index) => {
    await peer.request();
    if (index === 0) await peer.write("HTTP/1.1 200 OK\r\n\r\nuntil the close");
    else await peer.write(json('{"n":2}', "connection: close\r\n"));
    peer.close();
  });
  const pool = new Http1Pool(server.origin, options);
  try {
    assertEquals(await (await pool.post("/", {}, "{}", signal())).text(), "until the close");
    assertEquals(await (await pool.post("/", {}, "{}", signal())).text(), '{"n":2}');
    assertEquals(pool.idleCount, 0);
    assertEquals(server.connections, 2);
  } finally {
    pool.close();
    await server.close();
  }
});

Deno.test("Http1Pool retries once on a fresh connection when a reused one was closed while idle", async () => {
  let closed = 0;
  const server = rawServer(async (peer) => {
    await peer.request();
    // Answers as if keeping the connection, then closes it (a server's idle timeout racing the pool).
    await peer.write(json('{"ok":true}'));
    peer.close();
    closed++;
  });
  const pool = new Http1Pool(server.origin, options);
  try {
    assertEquals(await (await pool.post("/", {}, "{}", signal())).text(), '{"ok":true}');
    await waitFor(() => closed === 1, { what: "the server to close the idle connection" });
    assertEquals(await (await pool.post("/", {}, "{}", signal())).text(), '{"ok":true}');
    assertEquals(server.connections, 2);
  } finally {
    pool.close();
    await server.close();
  }
});

Deno.test("Http1Pool reports a fresh connection closed before any answer, without retrying it", async () => {
  const server = rawServer(async (peer) => {
    await peer.request();
    peer.close();
  });
  const pool = new Http1Pool(server.origin, options);
  try {
    await assertRejects(
      () => pool.post("/", {}, "{}", signal()),
      Http1ProtocolError,
      "closed before a response",
    );
    assertEquals(server.connections, 1);
  } finally {
    pool.close();
    await server.close();
  }
});

Deno.test("Http1Pool gives the answer an upstream sends before reading a large body, whether it then closes or stalls", async () => {
  const refusal = '{"error":{"message":"request too large"}}';
  for (const after of ["close", "stall"] as const) {
    let release = () => {};
    const stalled = new Promise<void>((resolve) => (release = resolve));
    const server = rawServer(async (peer) => {
      await peer.head();
      await peer.write(
        `HTTP/1.1 413 Payload Too Large\r\ncontent-length: ${refusal.length}\r\n\r\n${refusal}`,
      );
      // Closing with the body unread resets the connection; stalling leaves the client's write blocked.
      if (after === "stall") await stalled;
    });
    const pool = new Http1Pool(server.origin, options);
    try {
      const response = await pool.post("/v1/chat/completions", {}, "x".repeat(8 * 1024 * 1024), signal());
      assertEquals(response.status, 413, after);
      assertEquals(await response.text(), refusal, after);
      // The request was never sent in full: the connection is not reused.
      assertEquals(pool.idleCount, 0, after);
    } finally {
      release();
      pool.close();
      await server.close();
    }
  }
});

Deno.test("Http1Pool refuses a broken answer: a head too large, a body cut short, bytes past the body, a coded body", async () => {
  const server = rawServer(async (peer, index) => {
    await peer.request();
    if (index === 0) await peer.write(`HTTP/1.1 200 OK\r\nx-big: ${"a".repeat(70_000)}\r\n\r\n`);
    if (index === 1) await peer.write("HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\nshort");
    if (index === 2) await peer.write(json("{}") + "HTTP/1.1 200 OK\r\n");
    if (index === 2) await peer.request();
    if (index === 3) await peer.write(json("{}", "content-encoding: gzip\r\n"));
  });
  const pool = new Http1Pool(server.origin, options);
  try {
    await assertRejects(
      () => pool.post("/", {}, "{}", signal()),
      Http1ProtocolError,
      "response head is larger than 65536 bytes",
    );
    const cut = await pool.post("/", {}, "{}", signal());
    await assertRejects(() => cut.text(), Http1ProtocolError, "inside the response body");
    const extra = await pool.post("/", {}, "{}", signal());
    assertEquals(await extra.text(), "{}");
    // The stray bytes after the body make the connection untrustworthy: it is closed, not pooled.
    assertEquals(pool.idleCount, 0);
    await assertRejects(() => pool.post("/", {}, "{}", signal()), Http1ProtocolError, "gzip-encoded body");
  } finally {
    pool.close();
    await server.close();
  }
});

Deno.test("Http1Pool: aborting the signal fails a pending read with its reason and closes the connection", async () => {
  let peerSawClose = false;
  const server = rawServer(async (peer) => {
    await peer.request();
    await peer.write("HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n");
    peerSawClose = (await peer.request()) === null;
  });
  const pool = new Http1Pool(server.origin, options);
  try {
    const controller = new AbortController();
    const response = await pool.post("/", {}, "{}", controller.signal);
    assertEquals(decoder.decode(await response.read() ?? new Uint8Array()), "hello");
    const pending = response.read();
    controller.abort(new DOMException("client disconnected", "AbortError"));
    await assertRejects(() => pending, DOMException, "client disconnected");
    await waitFor(() => peerSawClose, { what: "the server to see the connection close" });
    assertEquals(pool.idleCount, 0);
    // An aborted signal stops a call before it connects.
    await assertRejects(
      () => pool.post("/", {}, "{}", controller.signal),
      DOMException,
      "client disconnected",
    );
    assertEquals(server.connections, 1);
  } finally {
    pool.close();
    await server.close();
  }
});

Deno.test("Http1Pool keeps at most maxIdle connections, honours the server's keep-alive timeout, and text(limit)", async () => {
  let release = () => {};
  const gate = new Promise<void>((resolve) => release = resolve);
  let waiting = 0;
  const server = rawServer(async (peer) => {
    for (let request = await peer.request(); request !== null; request = await peer.request()) {
      if (request.body === "short-lived") {
        await peer.write(json("{}", "keep-alive: timeout=1\r\n"));
        continue;
      }
      waiting++;
      await gate;
      await peer.write(json(`{"body":"${"z".repeat(100)}"}`));
    }
  });
  const pool = new Http1Pool(server.origin, { maxIdle: 3, idleTimeoutMs: 10_000 });
  try {
    const calls = Array.from({ length: 8 }, () => pool.post("/", {}, "{}", signal()).then((r) => r.text()));
    await waitFor(() => waiting === 8, { what: "all eight calls at the server, each on its own connection" });
    release();
    assertEquals(new Set(await Promise.all(calls)).size, 1);
    assertEquals(server.connections, 8);
    assertEquals(pool.idleCount, 3);
    const limited = await pool.post("/", {}, "{}", signal());
    assertEquals(await limited.text(10), '{"body":"z');
    assertEquals(pool.idleCount, 2);
    // timeout=1 leaves no safe idle time: that connection is closed, not pooled.
    await (await pool.post("/", {}, "short-lived", signal())).text();
    assertEquals(pool.idleCount, 1);
  } finally {
    pool.close();
    await server.close();
  }
});

Deno.test("Http1Pool refuses header names and values that would inject lines, before connecting", async () => {
  const server = rawServer(async () => {});
  const pool = new Http1Pool(server.origin, options);
  try {
    await assertRejects(
      () => pool.post("/", { authorization: "Bearer k\r\nx-evil: 1" }, "{}", signal()),
      TypeError,
    );
    await assertRejects(() => pool.post("/", { "x-a\nb": "v" }, "{}", signal()), TypeError);
    await assertRejects(() => pool.post("/", { "bad name": "v" }, "{}", signal()), TypeError);
    assertEquals(server.connections, 0);
  } finally {
    pool.close();
    await server.close();
  }
});

Deno.test("ProviderClient: a refused connection names the host; close() drops idle connections", async () => {
  const server = rawServer(async (peer) => {
    for (let request = await peer.request(); request !== null; request = await peer.request()) {
      await peer.write(json("{}"));
    }
  });
  const client = new ProviderClient(() => undefined);
  try {
    await (await client.post(`${server.url}/v1/a`, {}, "{}", signal())).text();
    await (await client.post(`${server.url}/v1/b`, {}, "{}", signal())).text();
    assertEquals(server.connections, 1);
    assertEquals(client.idleConnections, 1);
    client.close();
    assertEquals(client.idleConnections, 0);
    await assertRejects(() => client.post(`${server.url}/v1/a`, {}, "{}", signal()), Error, "closed");
    const port = (() => {
      const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
      const free = (probe.addr as Deno.NetAddr).port;
      probe.close();
      return free;
    })();
    const error = await assertRejects(() =>
      new ProviderClient(() => undefined).post(`http://127.0.0.1:${port}/`, {}, "{}", signal())
    );
    assertStringIncludes(error.message, `cannot connect to 127.0.0.1:${port}`);
  } finally {
    client.close();
    await server.close();
  }
});

Deno.test("ProviderClient sends URLs behind an environment proxy through fetch, which uses the proxy", async () => {
  const proxied: string[] = [];
  // A forward proxy sees absolute-form targets; this one answers for every upstream itself.
  const proxy = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    proxied.push(request.url);
    return Response.json({ via: "proxy", body: await request.text() });
  });
  try {
    const output = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        new URL("../helpers/proxy_env_probe.ts", import.meta.url).pathname,
        "http://upstream.invalid/v1/chat/completions",
      ],
      env: {
        PATH: Deno.env.get("PATH") ?? "",
        HOME: Deno.env.get("HOME") ?? "",
        NO_COLOR: "1",
        HTTP_PROXY: `http://127.0.0.1:${proxy.addr.port}`,
        NO_PROXY: "localhost,.internal.example",
      },
      clearEnv: true,
    }).output();
    assertEquals(
      new TextDecoder().decode(output.stdout).trim(),
      `200 ${JSON.stringify({ via: "proxy", body: '{"a":"parts"}' })}`,
    );
    assertEquals(proxied, ["http://upstream.invalid/v1/chat/completions"]);
  } finally {
    await proxy.shutdown();
  }
});

Deno.test("usesEnvProxy: the scheme's proxy or ALL_PROXY, minus hosts NO_PROXY plainly names", () => {
  const check = (url: string, env: Record<string, string>) => usesEnvProxy(new URL(url), (name) => env[name]);
  assertEquals(check("https://api.example.com/v1", {}), false);
  assertEquals(check("https://api.example.com/v1", { HTTP_PROXY: "http://p:3128" }), false);
  assertEquals(check("https://api.example.com/v1", { https_proxy: "http://p:3128" }), true);
  assertEquals(check("http://api.example.com/v1", { ALL_PROXY: "http://p:3128" }), true);
  const proxied = { HTTPS_PROXY: "http://p:3128", HTTP_PROXY: "http://p:3128" };
  assertEquals(check("https://api.example.com/v1", { ...proxied, NO_PROXY: "*" }), false);
  assertEquals(check("https://api.example.com/v1", { ...proxied, NO_PROXY: "example.com" }), false);
  assertEquals(check("https://api.example.com/v1", { ...proxied, no_proxy: ".example.com, other" }), false);
  assertEquals(check("https://api.example.com/v1", { ...proxied, NO_PROXY: "api.example.com:443" }), false);
  assertEquals(check("https://api.example.com/v1", { ...proxied, NO_PROXY: "api.example.com:8443" }), true);
  assertEquals(check("https://notexample.com/v1", { ...proxied, NO_PROXY: "example.com" }), true);
  assertEquals(check("http://127.0.0.1:8080/v1", { ...proxied, NO_PROXY: "127.0.0.1" }), false);
  // Entries it cannot read with certainty (a CIDR, an IPv6 address) leave the call to fetch's own rules.
  assertEquals(check("http://10.1.2.3/v1", { ...proxied, NO_PROXY: "10.0.0.0/8" }), true);
  assertEquals(check("http://[::1]:8080/v1", { ...proxied, NO_PROXY: "::1" }), true);
});

/** Whether this machine has an IPv6 loopback to test against. */
const ipv6Loopback = (() => {
  try {
    Deno.listen({ hostname: "::1", port: 0 }).close();
    return true;
  } catch {
    return false;
  }
})();

Deno.test({
  name: "ProviderClient reaches an IPv6 literal upstream (an Ollama on [::1]) with the bracketed Host header",
  ignore: !ipv6Loopback,
  async fn() {
    const server = Deno.serve(
      { hostname: "::1", port: 0, onListen() {} },
      (request) => new Response(`host ${request.headers.get("host")}`),
    );
    const client = new ProviderClient(() => undefined);
    try {
      const response = await client.post(`http://[::1]:${server.addr.port}/api/chat`, {}, "{}", signal());
      assertEquals(await response.text(), `host [::1]:${server.addr.port}`);
    } finally {
      client.close();
      await server.shutdown();
    }
  },
});

Deno.test("ProviderClient keeps every connection a burst opened, so the next burst of the same size opens none", async () => {
  // Closing idle connections beyond a small cap made a steady 50-connection load open ~900 upstream
  // connections a second (each with its buffers): the keep-alive cap is the concurrency cap.
  const burst = 40;
  let arrived = 0;
  let release = () => {};
  let gate = new Promise<void>((resolve) => release = resolve);
  const server = rawServer(async (peer) => {
    for (let request = await peer.request(); request !== null; request = await peer.request()) {
      // Every request of a burst waits for the whole burst, so each needs its own connection.
      if (++arrived % burst === 0) release();
      await gate;
      await peer.write(json("{}"));
    }
  });
  const client = new ProviderClient(() => undefined);
  const wave = () =>
    Promise.all(
      Array.from({ length: burst }, () =>
        client.post(`${server.url}/v1/x`, {}, "{}", signal()).then((r) => r.text())),
    );
  try {
    await wave();
    assertEquals(server.connections, burst);
    assertEquals(client.idleConnections, burst);
    gate = new Promise<void>((resolve) => release = resolve);
    await wave();
    assertEquals(server.connections, burst);
    assertEquals(client.idleConnections, burst);
  } finally {
    client.close();
    await server.close();
  }
});
