/**
 * A hostile chat-completions upstream on a free loopback port, speaking raw HTTP/1.1 so it can send what
 * a well-behaved server library would refuse to: huge answers, lines without end, endless comments,
 * oversized heads. It never holds a hostile answer in memory: bodies are written from one reused piece,
 * so the memory a test measures is the gateway's, not the mock's.
 */

import { chatChunk, chatCompletion } from "./chat_fixtures.ts";

/** What the mock answers with. */
export type HostileMode =
  /** A normal small chat completion (connections are kept alive). */
  | { readonly kind: "ok"; readonly text?: string }
  /** A chat completion whose content is `bytes` long, announced by content-length or sent chunked. */
  | { readonly kind: "bigJson"; readonly bytes: number; readonly chunked?: boolean }
  /** An SSE stream that opens one `data:` line and never ends it (`bytes` of payload, then silence). */
  | { readonly kind: "longLine"; readonly bytes: number }
  /** An SSE stream of `: keep-alive` comments every `everyMs`, never any content. */
  | { readonly kind: "comments"; readonly everyMs: number }
  /** A real SSE stream of one small delta every `everyMs`, without end. */
  | { readonly kind: "drip"; readonly everyMs: number }
  /** A response head with `bytes` of header lines. */
  | { readonly kind: "bigHead"; readonly bytes: number };

/** A running hostile upstream. */
export interface HostileUpstream {
  /** The base URL (`http://127.0.0.1:<port>`). */
  readonly url: string;
  /** Connections accepted so far. */
  readonly connections: () => number;
  /** Requests answered so far. */
  readonly requests: () => number;
  /** Changes the answer for the following requests. */
  mode(next: HostileMode): void;
  close(): Promise<void>;
}

const encoder = new TextEncoder();
/** The piece bodies are cut from; one allocation for the whole life of the mock. */
const PIECE = encoder.encode("a".repeat(64 * 1024));
/** Longest time a hostile answer is kept going; a test that forgets to close the mock still ends. */
const MAX_ANSWER_MS = 10 * 60_000;

/** Starts a hostile upstream answering every request with `initial` until told otherwise. */
export function startHostileUpstream(initial: HostileMode): HostileUpstream {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let mode = initial;
  let connections = 0;
  let requests = 0;
  const open = new Set<Deno.Conn>();
  const served: Promise<void>[] = [];
  const accepting = (async () => {
    for await (const conn of listener) {
      connections++;
      open.add(conn);
      served.push(serveConnection(conn, () => mode, () => requests++).finally(() => open.delete(conn)));
    }
  })().catch(() => {});
  return {
    url: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`,
    connections: () => connections,
    requests: () => requests,
    mode(next) {
      mode = next;
    },
    async close() {
      listener.close();
      for (const conn of open) closeQuietly(conn);
      await accepting;
      await Promise.allSettled(served);
    },
  };
}

async function serveConnection(conn: Deno.Conn, mode: () => HostileMode, counted: () => void): Promise<void> {
  const buffer = new Uint8Array(256 * 1024);
  let filled = 0;
  try {
    for (let served = 0; served < 10_000; served++) {
      // Read one request: the head, then content-length bytes of body (small test bodies only).
      let headEnd = -1;
      while (headEnd === -1) {
        const read = await conn.read(buffer.subarray(filled));
        if (read === null) return;
        filled += read;
        headEnd = findBlankLine(buffer, filled);
        if (headEnd === -1 && filled === buffer.length) return;
      }
      const head = new TextDecoder().decode(buffer.subarray(0, headEnd));
      const length = Number(/content-length:\s*(\d+)/i.exec(head)?.[1] ?? "0");
      while (filled < headEnd + length) {
        const read = await conn.read(buffer.subarray(filled));
        if (read === null) return;
        filled += read;
      }
      buffer.copyWithin(0, headEnd + length, filled);
      filled -= headEnd + length;
      counted();
      if (!await answer(conn, mode())) return;
    }
  } catch {
    // The gateway closed the connection: the usual end of a hostile answer.
  } finally {
    closeQuietly(conn);
  }
}

/** Writes one answer; true when the connection may carry another request. */
async function answer(conn: Deno.Conn, mode: HostileMode): Promise<boolean> {
  const until = Date.now() + MAX_ANSWER_MS;
  switch (mode.kind) {
    case "ok": {
      const body = JSON.stringify(chatCompletion(mode.text ?? "fine"));
      await write(
        conn,
        `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`,
      );
      await write(conn, body);
      return true;
    }
    case "bigJson": {
      const [before, after] = JSON.stringify(chatCompletion("@")).split("@");
      const total = before.length + mode.bytes + after.length;
      const framing = mode.chunked ? "transfer-encoding: chunked" : `content-length: ${total}`;
      await write(conn, `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n${framing}\r\n\r\n`);
      const send = (bytes: Uint8Array | string) =>
        mode.chunked ? writeChunk(conn, bytes) : write(conn, bytes);
      await send(before);
      for (let left = mode.bytes; left > 0 && Date.now() < until; left -= PIECE.length) {
        await send(PIECE.subarray(0, Math.min(left, PIECE.length)));
      }
      await send(after);
      if (mode.chunked) await write(conn, "0\r\n\r\n");
      return true;
    }
    case "longLine": {
      await write(conn, sseHead());
      await writeChunk(conn, 'data: {"choices":[{"index":0,"delta":{"content":"');
      for (let left = mode.bytes; left > 0 && Date.now() < until; left -= PIECE.length) {
        await writeChunk(conn, PIECE.subarray(0, Math.min(left, PIECE.length)));
      }
      await holdOpen(conn, until);
      return false;
    }
    case "comments":
      await write(conn, sseHead());
      while (Date.now() < until) {
        await writeChunk(conn, ": keep-alive\n\n");
        await delay(mode.everyMs);
      }
      return false;
    case "drip": {
      await write(conn, sseHead());
      const chunk = (delta: Record<string, unknown>) => `data: ${JSON.stringify(chatChunk(delta))}\n\n`;
      await writeChunk(conn, chunk({ role: "assistant", content: "" }));
      while (Date.now() < until) {
        await writeChunk(conn, chunk({ content: "drip " }));
        await delay(mode.everyMs);
      }
      return false;
    }
    case "bigHead": {
      await write(conn, "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n");
      const line = `x-filler: ${"f".repeat(1000)}\r\n`;
      for (let sent = 0; sent < mode.bytes && Date.now() < until; sent += line.length) {
        await write(conn, line);
      }
      const body = JSON.stringify(chatCompletion("after a big head"));
      await write(conn, `content-length: ${body.length}\r\n\r\n${body}`);
      return true;
    }
  }
}

function sseHead(): string {
  return "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n";
}

/** Keeps a connection open without sending, until the peer leaves (or sends past `until`). */
async function holdOpen(conn: Deno.Conn, until: number): Promise<void> {
  const sink = new Uint8Array(1024);
  while (Date.now() < until) {
    if (await conn.read(sink) === null) return;
  }
}

async function writeChunk(conn: Deno.Conn, data: Uint8Array | string): Promise<void> {
  const bytes = typeof data === "string" ? encoder.encode(data) : data;
  await write(conn, `${bytes.length.toString(16)}\r\n`);
  await write(conn, bytes);
  await write(conn, "\r\n");
}

async function write(conn: Deno.Conn, data: Uint8Array | string): Promise<void> {
  const bytes = typeof data === "string" ? encoder.encode(data) : data;
  for (let at = 0; at < bytes.length;) at += await conn.write(bytes.subarray(at));
}

function findBlankLine(bytes: Uint8Array, end: number): number {
  for (let i = 3; i < end; i++) {
    if (bytes[i] === 10 && bytes[i - 1] === 13 && bytes[i - 2] === 10 && bytes[i - 3] === 13) return i + 1;
  }
  return -1;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch {
    // Already closed.
  }
}
