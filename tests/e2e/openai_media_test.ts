/**
 * The `openai` SDK's images and audio calls against a running gateway, through an OpenAI-compatible mock
 * and (for images) a Gemini mock answering generateContent with an inline image: answers, what the
 * upstream received, the usage rows with their per-image / per-second / per-character cost, and the clear
 * 400 for a chat model asked for images.
 */
import OpenAI, { toFile } from "openai";
import { assert, assertEquals, assertRejects, assertStringIncludes } from "../helpers/assert.ts";
import { openHomeStore, startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { waitFor } from "../helpers/wait.ts";

const PNG_B64 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/** One request as the mock saw it: path, content type, and the JSON body or the form's fields and files. */
interface Seen {
  path: string;
  contentType: string;
  json?: Record<string, unknown>;
  fields?: Record<string, string>;
  files?: { field: string; name: string; type: string; size: number }[];
}

function startMediaMock(): { url: string; seen: Seen[]; close(): Promise<void> } {
  const seen: Seen[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    const url = new URL(request.url);
    const contentType = request.headers.get("content-type") ?? "";
    const entry: Seen = { path: url.pathname, contentType };
    if (contentType.startsWith("multipart/form-data")) {
      const form = await request.formData();
      entry.fields = {};
      entry.files = [];
      for (const [key, value] of form.entries()) {
        if (typeof value === "string") entry.fields[key] = value;
        else entry.files.push({ field: key, name: value.name, type: value.type, size: value.size });
      }
    } else entry.json = await request.json();
    seen.push(entry);
    const model = entry.json?.model ?? entry.fields?.model;
    switch (url.pathname) {
      case "/v1/images/generations":
      case "/v1/images/edits":
        return Response.json({
          created: 1_700_000_000,
          data: entry.json?.response_format === "url"
            ? [{ url: "https://images.example/1.png", revised_prompt: "a red apple" }]
            : [{ b64_json: PNG_B64 }],
        });
      case "/v1/audio/transcriptions":
      case "/v1/audio/translations":
        if (entry.fields?.stream === "true") {
          const events = [
            { type: "transcript.text.delta", delta: "Hello" },
            { type: "transcript.text.delta", delta: " world" },
            {
              type: "transcript.text.done",
              text: "Hello world",
              usage: { type: "tokens", input_tokens: 50, output_tokens: 4, total_tokens: 54 },
            },
          ];
          const text = events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("");
          return new Response(text, { headers: { "content-type": "text/event-stream" } });
        }
        if (entry.fields?.response_format === "text") {
          return new Response("Hello world\n", { headers: { "content-type": "text/plain" } });
        }
        return Response.json({ text: "Hello world", duration: 120, language: "english" });
      case "/v1/audio/speech":
        return new Response(new Uint8Array([0x49, 0x44, 0x33, 1, 2, 3, 4, 5]), {
          headers: { "content-type": "audio/mpeg" },
        });
      case `/v1beta/models/${model}:generateContent`:
      case "/v1beta/models/gemini-2.5-flash-image:generateContent":
        return Response.json({
          candidates: [{
            content: {
              role: "model",
              parts: [{ text: "Here it is." }, { inlineData: { mimeType: "image/png", data: PNG_B64 } }],
            },
            finishReason: "STOP",
          }],
          usageMetadata: { promptTokenCount: 7, candidatesTokenCount: 1290, totalTokenCount: 1297 },
        });
    }
    return Response.json({ error: { message: `no route ${url.pathname}` } }, { status: 404 });
  });
  const { port } = server.addr as Deno.NetAddr;
  return { url: `http://127.0.0.1:${port}`, seen, close: () => server.shutdown() };
}

interface Setup {
  gw: TestGateway;
  mock: ReturnType<typeof startMediaMock>;
  client: OpenAI;
  [Symbol.asyncDispose](): Promise<void>;
}

async function setup(): Promise<Setup> {
  const mock = startMediaMock();
  const gw = await startTestGateway(
    "providers:\n" +
      `  - id: oa-1\n    prefix: oa\n    api_type: chat_compat\n    base_url: ${mock.url}/v1\n    api_key: sk-test\n` +
      `  - id: gem-1\n    prefix: gem\n    api_type: generate_native\n    base_url: ${mock.url}\n    api_key: g-test\n`,
  );
  const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: "anything", maxRetries: 0 });
  return {
    gw,
    mock,
    client,
    async [Symbol.asyncDispose]() {
      await gw.stop();
      await mock.close();
    },
  };
}

/** The usage rows written so far (model, client_format, status, cost). */
function usageRows(
  gw: TestGateway,
): { model: string; client_format: string; status: number; cost: number }[] {
  const store = openHomeStore(gw.dir);
  try {
    return store.db.prepare("SELECT model, client_format, status, cost FROM usage ORDER BY id")
      .all() as never;
  } finally {
    store.close();
  }
}

async function rowFor(gw: TestGateway, model: string) {
  let row: ReturnType<typeof usageRows>[number] | undefined;
  await waitFor(() => (row = usageRows(gw).find((r) => r.model === model)) !== undefined, {
    what: `the usage row of ${model}`,
  });
  return row!;
}

Deno.test("openai SDK: images.generate answers b64_json and url through an OpenAI-compatible upstream, priced per image", async () => {
  await using s = await setup();
  const b64 = await s.client.images.generate({
    model: "oa/dall-e-3",
    prompt: "a red apple",
    response_format: "b64_json",
  });
  assertEquals(b64.data?.[0].b64_json, PNG_B64);
  assertEquals(s.mock.seen.at(-1)?.json?.model, "dall-e-3");
  const url = await s.client.images.generate({
    model: "oa/dall-e-3",
    prompt: "a red apple",
    response_format: "url",
    size: "1024x1792",
    quality: "hd",
  });
  assertEquals(url.data?.[0].url, "https://images.example/1.png");
  assertEquals(url.data?.[0].revised_prompt, "a red apple");
  await waitFor(() => usageRows(s.gw).filter((r) => r.model === "oa/dall-e-3").length === 2, {
    what: "two rows",
  });
  const rows = usageRows(s.gw).filter((r) => r.model === "oa/dall-e-3");
  // dall-e-3's builtin prices: the default (standard 1024x1024) $0.04, hd 1024x1792 $0.12.
  assertEquals(rows.map((r) => [r.client_format, r.status, r.cost]), [["images", 200, 0.04], [
    "images",
    200,
    0.12,
  ]]);
});

Deno.test("openai SDK: images.edit sends the file as multipart to the upstream", async () => {
  await using s = await setup();
  const png = Uint8Array.from(atob(PNG_B64), (c) => c.charCodeAt(0));
  const edited = await s.client.images.edit({
    model: "oa/gpt-image-1",
    prompt: "make it blue",
    image: await toFile(png, "apple.png", { type: "image/png" }),
  });
  assertEquals(edited.data?.[0].b64_json, PNG_B64);
  const seen = s.mock.seen.at(-1)!;
  assertEquals(seen.path, "/v1/images/edits");
  assertEquals(seen.fields?.model, "gpt-image-1");
  assertEquals(seen.fields?.prompt, "make it blue");
  assertEquals(seen.files?.map((f) => [f.field, f.name, f.type, f.size]), [[
    "image",
    "apple.png",
    "image/png",
    png.length,
  ]]);
  const row = await rowFor(s.gw, "oa/gpt-image-1");
  // gpt-image-1 without reported usage: the unknown quality's per-image price, $0.042.
  assertEquals([row.status, row.cost], [200, 0.042]);
});

Deno.test("images.generate to a Gemini image model goes through generateContent with image output", async () => {
  await using s = await setup();
  const answer = await s.client.images.generate({
    model: "gem/gemini-2.5-flash-image",
    prompt: "a red apple",
    size: "1792x1024",
  });
  assertEquals(answer.data?.[0].b64_json, PNG_B64);
  const seen = s.mock.seen.at(-1)!;
  assertEquals(seen.path, "/v1beta/models/gemini-2.5-flash-image:generateContent");
  assertEquals(seen.json?.generationConfig, {
    responseModalities: ["TEXT", "IMAGE"],
    imageConfig: { aspectRatio: "16:9" },
  });
  const asUrl = await s.client.images.generate({
    model: "gem/gemini-2.5-flash-image",
    prompt: "x",
    response_format: "url",
  });
  assertEquals(asUrl.data?.[0].url, `data:image/png;base64,${PNG_B64}`);
  const row = await rowFor(s.gw, "gem/gemini-2.5-flash-image");
  // The reported usage at its token prices: 7 input at $0.30/M, 1290 output at $30/M.
  assertEquals(row.status, 200);
  assert(Math.abs(row.cost - (7 * 0.3 + 1290 * 30) / 1e6) < 1e-12, `cost ${row.cost}`);
});

Deno.test("a chat model asked for images gets a clear 400 in OpenAI's format, and the upstream is not called", async () => {
  await using s = await setup();
  const error = await assertRejects(
    () => s.client.images.generate({ model: "oa/gpt-4o", prompt: "a red apple" }),
    OpenAI.BadRequestError,
  );
  assertStringIncludes(error.message, `"gpt-4o" is a chat model`);
  assertEquals((error.error as { type?: string }).type, "invalid_request_error");
  assertEquals(s.mock.seen.length, 0);
});

Deno.test("openai SDK: audio transcription, translation and streamed transcription through an OpenAI-compatible upstream", async () => {
  await using s = await setup();
  const audio = await toFile(new Uint8Array(2048).fill(7), "talk.mp3", { type: "audio/mpeg" });
  const transcript = await s.client.audio.transcriptions.create({
    model: "oa/whisper-1",
    file: audio,
    language: "en",
  });
  assertEquals(transcript.text, "Hello world");
  const seen = s.mock.seen.at(-1)!;
  assertEquals([seen.path, seen.fields?.model, seen.fields?.language], [
    "/v1/audio/transcriptions",
    "whisper-1",
    "en",
  ]);
  assertEquals(seen.files?.map((f) => [f.field, f.name, f.size]), [["file", "talk.mp3", 2048]]);
  // whisper-1: $0.006 a minute, 120 s.
  const row = await rowFor(s.gw, "oa/whisper-1");
  assertEquals([row.client_format, row.status], ["audio", 200]);
  assert(Math.abs(row.cost - 0.012) < 1e-9, `cost ${row.cost}`);

  const translation = await s.client.audio.translations.create({ model: "oa/whisper-1", file: audio });
  assertEquals(translation.text, "Hello world");
  assertEquals(s.mock.seen.at(-1)?.path, "/v1/audio/translations");

  const text = await s.client.audio.transcriptions.create({
    model: "oa/whisper-1",
    file: audio,
    response_format: "text",
  });
  assertEquals(String(text).trim(), "Hello world");

  const stream = await s.client.audio.transcriptions.create({
    model: "oa/gpt-4o-transcribe",
    file: audio,
    stream: true,
  });
  let deltas = "";
  let done = "";
  for await (const event of stream) {
    if (event.type === "transcript.text.delta") deltas += event.delta;
    if (event.type === "transcript.text.done") done = event.text;
  }
  assertEquals([deltas, done], ["Hello world", "Hello world"]);
  // gpt-4o-transcribe's token prices: 50 input at $2.50/M and 4 output at $10/M.
  const streamed = await rowFor(s.gw, "oa/gpt-4o-transcribe");
  assert(Math.abs(streamed.cost - (50 * 2.5 + 4 * 10) / 1e6) < 1e-12, `cost ${streamed.cost}`);
});

Deno.test("openai SDK: audio.speech streams the upstream's audio bytes, priced per character", async () => {
  await using s = await setup();
  const speech = await s.client.audio.speech.create({
    model: "oa/tts-1",
    input: "Hello there",
    voice: "alloy",
  });
  assertEquals(speech.headers.get("content-type"), "audio/mpeg");
  assertEquals([...new Uint8Array(await speech.arrayBuffer())], [0x49, 0x44, 0x33, 1, 2, 3, 4, 5]);
  assertEquals(s.mock.seen.at(-1)?.json, { model: "tts-1", input: "Hello there", voice: "alloy" });
  const row = await rowFor(s.gw, "oa/tts-1");
  // tts-1: $15 per million characters, 11 characters.
  assert(Math.abs(row.cost - 11 * 15 / 1e6) < 1e-12, `cost ${row.cost}`);
  // The request-log row (queued when the audio started) waited for the usage row written when it ended.
  const uid = speech.headers.get("x-gateway-request-id") ?? "";
  let logged: { cost: number; accountId: string } | undefined;
  await waitFor(() => {
    s.gw.runtime.writer.flush();
    return (logged = s.gw.runtime.control.store.requests.byUid(uid)) !== undefined;
  }, { what: "the speech request's row" });
  assertEquals([logged?.cost, logged?.accountId], [row.cost, "oa-1"]);
});

Deno.test("media: an audio upload over 25 MiB is a 413 in OpenAI's error format; bad fields are 400s", async () => {
  await using s = await setup();
  const form = new FormData();
  form.append("model", "oa/whisper-1");
  form.append("file", new Blob([new Uint8Array(25 * 1024 * 1024 + 1)], { type: "audio/mpeg" }), "big.mp3");
  const big = await fetch(`${s.gw.url}/v1/audio/transcriptions`, { method: "POST", body: form });
  assertEquals(big.status, 413);
  const body = await big.json();
  assertEquals(body.error.type, "invalid_request_error");
  assertStringIncludes(body.error.message, "25 MiB");
  const noFile = new FormData();
  noFile.append("model", "oa/whisper-1");
  const missing = await fetch(`${s.gw.url}/v1/audio/transcriptions`, { method: "POST", body: noFile });
  assertEquals(missing.status, 400);
  assertStringIncludes((await missing.json()).error.message, "file: is required");
  const badN = await fetch(`${s.gw.url}/v1/images/generations`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "oa/dall-e-3", prompt: "x", n: 0 }),
  });
  assertEquals(badN.status, 400);
  assertStringIncludes((await badN.json()).error.message, "n: must be an integer from 1 to 10");
  // Forms that cannot be read: no boundary named, or a body cut before its closing boundary.
  for (
    const [type, form, why] of [
      ["multipart/form-data", "--b\r\n", "names no boundary"],
      [
        "multipart/form-data; boundary=b",
        '--b\r\ncontent-disposition: form-data; name="model"\r\n\r\noa/whisper-1',
        "ends before",
      ],
    ]
  ) {
    const bad = await fetch(`${s.gw.url}/v1/audio/transcriptions`, {
      method: "POST",
      headers: { "content-type": type },
      body: form,
    });
    assertEquals(bad.status, 400);
    const error = (await bad.json()).error;
    assertEquals(error.type, "invalid_request_error");
    assertStringIncludes(error.message, `The multipart body cannot be read: `);
    assertStringIncludes(error.message, why);
  }
  assertEquals(s.mock.seen.length, 0);
});

Deno.test("media: the request log summarises an upload (name, type, size) and a binary answer, never their bytes", async () => {
  await using s = await setup();
  const control = s.gw.runtime.control;
  control.store.settings.set("server_request_logging", "true");
  control.reload();
  const audio = await toFile(new Uint8Array(4096).fill(0x41), "talk.mp3", { type: "audio/mpeg" });
  await s.client.audio.transcriptions.create({ model: "oa/whisper-1", file: audio });
  const speech = await s.client.audio.speech.create({
    model: "oa/tts-1",
    input: "Hello there",
    voice: "alloy",
  });
  await speech.arrayBuffer();
  let rows: ReturnType<typeof control.store.requestLogs.all> = [];
  await waitFor(() => {
    s.gw.runtime.writer.flush();
    rows = control.store.requestLogs.all();
    return rows.length === 2;
  }, { what: "two request-log rows" });
  const upload = rows.find((r) => r.model === "oa/whisper-1")!;
  assertStringIncludes(upload.requestBody, '"filename":"talk.mp3"');
  assertStringIncludes(upload.requestBody, '"bytes":4096');
  assert(!upload.requestBody.includes("AAAA"), "the audio bytes are not logged");
  assertEquals(upload.clientFormat, "audio");
  const spoken = rows.find((r) => r.model === "oa/tts-1")!;
  assertEquals(spoken.responseBody, "(audio/mpeg passed through)");
});

Deno.test("media: a combo falls back from a failing account (HTTP 500, cooled down) to the next member", async () => {
  const good = startMediaMock();
  const broken = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => Response.json({ error: { message: "upstream exploded" } }, { status: 500 }),
  );
  const brokenUrl = `http://127.0.0.1:${(broken.addr as Deno.NetAddr).port}`;
  const gw = await startTestGateway(
    "providers:\n" +
      `  - id: oa-broken\n    prefix: bad\n    api_type: chat_compat\n    base_url: ${brokenUrl}/v1\n    api_key: sk-a\n` +
      `  - id: oa-good\n    prefix: oa\n    api_type: chat_compat\n    base_url: ${good.url}/v1\n    api_key: sk-b\n` +
      "combos:\n  - name: pictures\n    models: [bad/dall-e-2, oa/dall-e-2]\n",
  );
  try {
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: "anything", maxRetries: 0 });
    const answer = await client.images.generate({ model: "pictures", prompt: "a red apple" });
    assertEquals(answer.data?.[0].b64_json, PNG_B64);
    await waitFor(() => usageRows(gw).length === 2, { what: "a row per attempt" });
    assertEquals(usageRows(gw).map((r) => [r.status, r.cost]), [[500, 0], [200, 0.02]]);
    assert(gw.runtime.routing.isCooling("oa-broken", gw.runtime.control.settings, Date.now()), "cooling");
  } finally {
    await gw.stop();
    await good.close();
    await broken.shutdown();
  }
});

Deno.test("media: per-image and per-character overrides from the YAML file and the dashboard win over builtins", async () => {
  const mock = startMediaMock();
  const gw = await startTestGateway(
    "providers:\n" +
      `  - id: oa-1\n    prefix: oa\n    api_type: chat_compat\n    base_url: ${mock.url}/v1\n    api_key: sk-test\n` +
      "pricing:\n" +
      '  my-pics: { input_per_mtok: 0, output_per_mtok: 0, per_image: { "hd@1024x1024": 0.5, "*": 0.25 } }\n' +
      "api_keys:\n  - key: static-admin-key-1234567890\n    client_key_label: admin\n",
  );
  const key = "static-admin-key-1234567890";
  try {
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: key, maxRetries: 0 });
    await client.images.generate({ model: "oa/my-pics", prompt: "x", quality: "hd", size: "1024x1024" });
    assertEquals((await rowFor(gw, "oa/my-pics")).cost, 0.5);
    const saved = await fetch(`${gw.url}/dashboard/api/pricing`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify({ model: "tts-1", input_per_mtok: 0, output_per_mtok: 0, per_mchar: 1_000_000 }),
    });
    assertEquals(saved.status, 200);
    assertEquals((await saved.json()).price.per_mchar, 1_000_000);
    await (await client.audio.speech.create({ model: "oa/tts-1", input: "four", voice: "alloy" }))
      .arrayBuffer();
    // One dollar per character: the override, not tts-1's builtin $15 per million.
    assertEquals((await rowFor(gw, "oa/tts-1")).cost, 4);
  } finally {
    await gw.stop();
    await mock.close();
  }
});

Deno.test("media: an images answer over limits.max_answer_bytes is a 502 in OpenAI's format naming the limit", async () => {
  const big = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => Response.json({ data: [{ b64_json: "A".repeat(4096) }] }),
  );
  const gw = await startTestGateway(
    "providers:\n" +
      `  - id: oa-1\n    prefix: oa\n    api_type: chat_compat\n    base_url: http://127.0.0.1:${
        (big.addr as Deno.NetAddr).port
      }/v1\n    api_key: sk-test\n` +
      "limits:\n  max_answer_bytes: 1024\n",
  );
  try {
    const response = await fetch(`${gw.url}/v1/images/generations`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "oa/dall-e-2", prompt: "x" }),
    });
    assertEquals(response.status, 502);
    const body = await response.json();
    assertEquals(body.error.type, "api_error");
    assertStringIncludes(body.error.message, "larger than 1024 bytes (limits.max_answer_bytes)");
  } finally {
    await gw.stop();
    await big.shutdown();
  }
});

Deno.test("media: a model name with a lone surrogate is a 400 in OpenAI's format, and no upstream is called", async () => {
  await using s = await setup();
  // Written as JSON escapes: a lone surrogate has no UTF-8 form of its own.
  const cases = [
    ["/v1/images/generations", '{"model":"oa/a\\ud83d","prompt":"x"}'],
    ["/v1/images/generations", '{"model":"gem/\\udc00b","prompt":"x"}'],
    ["/v1/audio/speech", '{"model":"oa/tts-1\\ud800","input":"hi","voice":"alloy"}'],
  ];
  for (const [path, body] of cases) {
    const response = await fetch(`${s.gw.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    assertEquals(response.status, 400, body);
    const error = (await response.json()).error;
    assertEquals(error.type, "invalid_request_error");
    assertStringIncludes(error.message, "model: must be valid Unicode text");
  }
  assertEquals(s.mock.seen.length, 0);
});

/** An OpenAI-compatible audio upstream whose answers have no bytes: empty, or cut off before the first. */
function startEmptyAudioMock(): { url: string; close(): Promise<void> } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const serving = (async () => {
    for await (const conn of listener) {
      (async () => {
        const buffer = new Uint8Array(64 * 1024);
        let head = "";
        while (!head.includes("\r\n\r\n")) {
          const read = await conn.read(buffer);
          if (read === null) break;
          head += new TextDecoder().decode(buffer.subarray(0, read));
        }
        const path = head.split(" ")[1] ?? "";
        const answer = path.endsWith("/audio/speech") && head.includes("tts-cut")
          // Promises 100 bytes and closes before the first.
          ? "HTTP/1.1 200 OK\r\ncontent-type: audio/mpeg\r\ncontent-length: 100\r\n\r\n"
          : path.endsWith("/audio/speech")
          ? "HTTP/1.1 200 OK\r\ncontent-type: audio/mpeg\r\ncontent-length: 0\r\n\r\n"
          : "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 0\r\nconnection: close\r\n\r\n";
        await conn.write(new TextEncoder().encode(answer)).catch(() => {});
        conn.close();
      })();
    }
  })();
  const { port } = listener.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      listener.close();
      await serving.catch(() => {});
    },
  };
}

Deno.test("media: speech whose upstream sends no audio byte (empty, or cut off before one) is a 502, never an empty 200; an empty text transcript passes", async () => {
  const mock = startEmptyAudioMock();
  const gw = await startTestGateway(
    "providers:\n" +
      `  - id: oa-1\n    prefix: oa\n    api_type: chat_compat\n    base_url: ${mock.url}/v1\n    api_key: sk-test\n`,
  );
  try {
    for (const model of ["oa/tts-1", "oa/tts-cut"]) {
      const response = await fetch(`${gw.url}/v1/audio/speech`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model, input: "Hello", voice: "alloy" }),
      });
      assertEquals(response.status, 502, model);
      const error = (await response.json()).error;
      assertEquals(error.type, "api_error");
      assertStringIncludes(
        error.message,
        model === "oa/tts-1"
          ? "The upstream answered the speech request with an empty body"
          : "The upstream's answer could not be read",
      );
      const row = await rowFor(gw, model);
      assertEquals([row.status, row.cost], [502, 0]);
    }
    // Silent audio may well have an empty transcript: that one is the upstream's answer as it is.
    const form = new FormData();
    form.append("model", "oa/whisper-1");
    form.append("response_format", "text");
    form.append("file", new Blob([new Uint8Array(16)], { type: "audio/mpeg" }), "silence.mp3");
    const transcript = await fetch(`${gw.url}/v1/audio/transcriptions`, { method: "POST", body: form });
    assertEquals(transcript.status, 200);
    assertEquals(await transcript.text(), "");
  } finally {
    await gw.stop();
    await mock.close();
  }
});

Deno.test("/v1/models and /api/show say each model's kind", async () => {
  const mock = startMediaMock();
  const gw = await startTestGateway(
    "providers:\n" +
      `  - id: oa-1\n    prefix: oa\n    api_type: chat_compat\n    base_url: ${mock.url}/v1\n    api_key: sk-test\n` +
      "    models: [gpt-4o, dall-e-3, whisper-1, tts-1, text-embedding-3-small]\n",
  );
  try {
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: "anything", maxRetries: 0 });
    const listed: [string, unknown][] = [];
    for await (const model of client.models.list()) {
      listed.push([model.id, (model as { kind?: unknown }).kind]);
    }
    assertEquals(listed, [
      ["oa/gpt-4o", "chat"],
      ["oa/dall-e-3", "image"],
      ["oa/whisper-1", "transcription"],
      ["oa/tts-1", "speech"],
      ["oa/text-embedding-3-small", "embedding"],
    ]);
    const shown = await fetch(`${gw.url}/api/show`, {
      method: "POST",
      body: JSON.stringify({ model: "oa/dall-e-3" }),
    });
    assertEquals((await shown.json()).capabilities, ["image"]);
  } finally {
    await gw.stop();
    await mock.close();
  }
});
