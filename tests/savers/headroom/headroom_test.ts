import { assert, assertEquals, assertStringIncludes } from "../../helpers/assert.ts";
import type { NeutralRequest } from "../../../src/model/mod.ts";
import { headroomSaver, runSavers } from "../../../src/savers/mod.ts";
import type { HeadroomDeps } from "../../../src/savers/mod.ts";
import { request, text } from "../request_fixture.ts";

function sample(): NeutralRequest {
  return request([text("You are a coding agent.", true)], [
    {
      role: "user",
      parts: [{ kind: "text", text: "List files" }, {
        kind: "image",
        source: { type: "base64", mediaType: "image/png", data: "AAAA" },
      }],
    },
    {
      role: "assistant",
      parts: [
        { kind: "reasoning", text: "thinking", signature: "sig-123", family: "anthropic" },
        { kind: "toolCall", id: "call_1", name: "ls", arguments: "{}" },
      ],
    },
    {
      role: "tool",
      parts: [{
        kind: "toolResult",
        callId: "call_1",
        content: [{ kind: "text", text: "a.ts\nb.ts\n".repeat(50) }],
      }],
    },
  ]);
}

interface Seen {
  url?: string;
  body?: Record<string, unknown>;
}

function respondingFetch(seen: Seen, answer: (body: Record<string, unknown>) => Response): typeof fetch {
  return (input, init) => {
    seen.url = String(input);
    seen.body = JSON.parse(String(init?.body)) as Record<string, unknown>;
    return Promise.resolve(answer(seen.body));
  };
}

async function runHeadroom(input: NeutralRequest, deps: HeadroomDeps) {
  const errors: unknown[] = [];
  const out = await runSavers(
    input,
    [headroomSaver("http://127.0.0.1:8787/", deps)],
    {},
    () => {},
    (_, e) => errors.push(e),
  );
  return { out, errors };
}

Deno.test("Headroom sends text-only chat messages and writes the compressed texts back in place", async () => {
  const seen: Seen = {};
  const fetch = respondingFetch(seen, (body) => {
    const messages = (body.messages as Record<string, unknown>[]).map((m) =>
      m.role === "tool" ? { ...m, content: "a.ts b.ts (x50)" } : m
    );
    return Response.json({ messages, stats: { saved: 1 } });
  });
  const input = sample();
  const { out, errors } = await runHeadroom(input, { fetch });
  assertEquals(errors, []);
  assertEquals(seen.url, "http://127.0.0.1:8787/v1/compress");
  assertEquals(seen.body?.model, "p/model");
  assertEquals((seen.body?.messages as unknown[]).length, 4);
  const result = out.messages[2].parts[0];
  assert(result.kind === "toolResult" && result.content[0].kind === "text");
  assertEquals(result.content[0].text, "a.ts b.ts (x50)");
  // What was never sent survives: the image, the signed reasoning, the cache breakpoint.
  assertEquals(out.messages[0], input.messages[0]);
  assertEquals(out.messages[1], input.messages[1]);
  assertEquals(out.system, input.system);
  assertStringIncludes(JSON.stringify(seen.body), "call_1");
});

Deno.test("Headroom leaves the request unchanged when the service times out", async () => {
  const controller = new AbortController();
  const fetch: typeof globalThis.fetch = (_input, init) =>
    new Promise((_, reject) => {
      init?.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
      controller.abort();
    });
  const input = sample();
  const { out, errors } = await runHeadroom(input, { fetch, timeoutSignal: () => controller.signal });
  assert(out === input);
  assertEquals(errors.length, 1);
  assertStringIncludes(String(errors[0]), "timed out after 3000 ms");
});

Deno.test("Headroom leaves the request unchanged on a network error, an HTTP error or a malformed answer", async () => {
  const answers: (() => Promise<Response>)[] = [
    () => Promise.reject(new TypeError("connection refused")),
    () => Promise.resolve(new Response("nope", { status: 500 })),
    () => Promise.resolve(new Response("not json", { status: 200 })),
    () => Promise.resolve(Response.json({ messages: [] })),
    () => Promise.resolve(Response.json({ messages: [{ role: "user", content: "only one" }] })),
  ];
  for (const answer of answers) {
    const input = sample();
    const { out, errors } = await runHeadroom(input, { fetch: answer });
    assert(out === input);
    assertEquals(errors.length, 1);
  }
});

Deno.test("Headroom skips bodies over 256 KB without calling the service", async () => {
  let called = false;
  const fetch: typeof globalThis.fetch = () => {
    called = true;
    return Promise.resolve(Response.json({}));
  };
  const big = request([], [{ role: "user", parts: [{ kind: "text", text: "x".repeat(300 * 1024) }] }]);
  const { out, errors } = await runHeadroom(big, { fetch });
  assert(out === big);
  assertEquals(errors, []);
  assertEquals(called, false);
});

Deno.test("Headroom never takes a text that got longer", async () => {
  const seen: Seen = {};
  const fetch = respondingFetch(seen, (body) =>
    Response.json({
      messages: (body.messages as Record<string, unknown>[]).map((m) => ({
        ...m,
        content: `${m.content} (expanded)`,
      })),
    }));
  const input = request([text("system")], [{ role: "user", parts: [{ kind: "text", text: "hello" }] }]);
  const { out } = await runHeadroom(input, { fetch });
  assert(out === input);
});
