/** A scripted upstream on a free loopback port: records requests, answers with what the test scripts. */

/** One recorded upstream request. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly search: string;
  readonly headers: Headers;
  readonly body: Record<string, unknown>;
}

/** How the mock answers one request. */
export type MockReply =
  | { readonly json: unknown; readonly status?: number; readonly headers?: Record<string, string> }
  | { readonly text: string; readonly status?: number; readonly contentType?: string }
  | {
    /** Raw SSE/NDJSON pieces written one by one. */
    readonly chunks: readonly string[];
    readonly status?: number;
    readonly contentType?: string;
    readonly delayMs?: number;
    /** Abort the connection after the chunks instead of ending cleanly. */
    readonly breakAfter?: boolean;
  }
  | { readonly hang: true }
  | {
    /** `signal` aborts when the caller ends the request. */
    readonly handler: (request: RecordedRequest, signal: AbortSignal) => Response | Promise<Response>;
  };

/** A running mock upstream. */
export interface MockUpstream {
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** How many hanging requests were ended by their caller (the gateway cancelled the call). */
  readonly cancelledHangs: () => number;
  /** Replies used in order; the last one repeats. */
  script(...replies: MockReply[]): void;
  close(): Promise<void>;
}

/** Starts a mock upstream. */
export function startMockUpstream(): Promise<MockUpstream> {
  const requests: RecordedRequest[] = [];
  let replies: MockReply[] = [{ json: {} }];
  let served = 0;
  const controller = new AbortController();
  const hanging: (() => void)[] = [];
  let cancelledHangs = 0;
  return new Promise((resolve) => {
    const server = Deno.serve({
      hostname: "127.0.0.1",
      port: 0,
      signal: controller.signal,
      onListen: ({ port }) => {
        resolve({
          url: `http://127.0.0.1:${port}`,
          requests,
          cancelledHangs: () => cancelledHangs,
          script(...next) {
            replies = next;
            served = 0;
          },
          async close() {
            for (const release of hanging) release();
            controller.abort();
            await server.finished;
          },
        });
      },
    }, async (request) => {
      const url = new URL(request.url);
      const text = await request.text();
      let body: Record<string, unknown> = {};
      try {
        body = text ? JSON.parse(text) : {};
      } catch { /* keep {} */ }
      const recorded = {
        method: request.method,
        path: url.pathname,
        search: url.search,
        headers: request.headers,
        body,
      };
      requests.push(recorded);
      const reply = replies[Math.min(served++, replies.length - 1)];
      request.signal.addEventListener("abort", () => {
        if ("hang" in reply) cancelledHangs++;
      }, { once: true });
      return await answer(reply, recorded, request.signal, hanging);
    });
  });
}

async function answer(
  reply: MockReply,
  recorded: RecordedRequest,
  signal: AbortSignal,
  hanging: (() => void)[],
): Promise<Response> {
  if ("handler" in reply) return await reply.handler(recorded, signal);
  if ("hang" in reply) {
    await new Promise<void>((release) => {
      hanging.push(release);
      signal.addEventListener("abort", () => release(), { once: true });
    });
    return new Response("too late", { status: 504 });
  }
  if ("json" in reply) {
    return Response.json(reply.json, { status: reply.status ?? 200, headers: reply.headers });
  }
  if ("text" in reply) {
    return new Response(reply.text, {
      status: reply.status ?? 200,
      headers: { "content-type": reply.contentType ?? "text/plain" },
    });
  }
  const encoder = new TextEncoder();
  const { chunks, delayMs = 0, breakAfter = false } = reply;
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      for (const chunk of chunks) {
        if (signal.aborted) return;
        if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
        try {
          controller.enqueue(encoder.encode(chunk));
        } catch {
          return;
        }
      }
      if (breakAfter) controller.error(new Error("mock upstream broke the stream"));
      else controller.close();
    },
  });
  return new Response(stream, {
    status: reply.status ?? 200,
    headers: { "content-type": reply.contentType ?? "text/event-stream" },
  });
}

/** SSE helper: `data: <json>\n\n` for each value (strings are sent as is). */
export function sse(...values: unknown[]): string[] {
  return values.map((v) => `data: ${typeof v === "string" ? v : JSON.stringify(v)}\n\n`);
}
