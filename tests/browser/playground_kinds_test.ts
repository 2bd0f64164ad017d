/**
 * The Playground beyond chat: a model's kind (from the listing) decides the request kinds offered, and
 * embeddings, an image (generated and edited), speech, a transcription, rerank and a legacy completion each go through the real
 * data plane as the signed-in identity and show their result, tokens or units, cost and serving account;
 * a request the gateway refuses shows its error in the screen.
 */
import { Buffer } from "node:buffer";
import type { Locator } from "playwright-core";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { type RecordedRequest, sse } from "../helpers/mock_upstream.ts";
import { chatChunk, chatCompletion } from "../helpers/chat_fixtures.ts";
import { type Dashboard, openDashboard, skipReason } from "./harness.ts";

const ignore = skipReason();
if (ignore) console.warn(ignore);
const options = { ignore: ignore !== "", sanitizeOps: false, sanitizeResources: false };

/** A 1×1 PNG. */
const PNG_B64 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
const AUDIO_BYTES = [0x49, 0x44, 0x33, 1, 2, 3, 4, 5];

const MODELS = ["m1", "text-embedding-3-small", "dall-e-3", "tts-1", "whisper-1", "rerank-v3.5"];

/** One OpenAI-compatible upstream answering every kind by path. */
function answerEveryKind(request: RecordedRequest): Response {
  switch (request.path) {
    case "/v1/embeddings":
      return Response.json({
        object: "list",
        data: [
          { object: "embedding", index: 0, embedding: [0.5, 0.25, 0.125] },
          { object: "embedding", index: 1, embedding: [-0.5, 0.75, 1] },
        ],
        model: "text-embedding-3-small",
        usage: { prompt_tokens: 40, total_tokens: 40 },
      });
    case "/v1/images/generations":
    case "/v1/images/edits":
      return Response.json({ created: 1_700_000_000, data: [{ b64_json: PNG_B64 }] });
    case "/v1/audio/speech":
      return new Response(new Uint8Array(AUDIO_BYTES), { headers: { "content-type": "audio/mpeg" } });
    case "/v1/audio/transcriptions":
      return Response.json({ text: "Hello from the recording", duration: 120, language: "english" });
    case "/v1/rerank":
      return Response.json({
        results: [{ index: 1, relevance_score: 0.91 }, { index: 0, relevance_score: 0.12 }],
        meta: { billed_units: { search_units: 1 } },
      });
    default:
      if (request.body.stream === true) {
        const body = sse(
          chatChunk({ role: "assistant", content: "streamed" }),
          chatChunk({ content: " words" }, "stop", {
            usage: { prompt_tokens: 30, completion_tokens: 10, total_tokens: 40 },
          }),
          "[DONE]",
        ).join("");
        return new Response(body, { headers: { "content-type": "text/event-stream" } });
      }
      return Response.json(chatCompletion("a completed prompt", { prompt_tokens: 12, completion_tokens: 8 }));
  }
}

/** Per-unit prices with round numbers, so each cost shown is told apart. */
const PRICES = [
  { model: "p/text-embedding-3-small", input_per_mtok: 1000, output_per_mtok: 0 }, // 40 tokens: $0.04
  { model: "p/dall-e-3", input_per_mtok: 0, output_per_mtok: 0, per_image: { "*": 0.07 } }, // 1 image: $0.07
  { model: "p/tts-1", input_per_mtok: 0, output_per_mtok: 0, per_mchar: 100_000 }, // 23 characters: $2.30
  { model: "p/whisper-1", input_per_mtok: 0, output_per_mtok: 0, per_second: 0.001 }, // 120 s: $0.12
  { model: "p/rerank-v3.5", input_per_mtok: 0, output_per_mtok: 0, per_search_unit: 0.5 }, // 1 unit: $0.50
  { model: "p/m1", input_per_mtok: 1000, output_per_mtok: 1000 }, // 20 tokens: $0.02
];

async function setPrices(d: Dashboard): Promise<void> {
  for (const price of PRICES) {
    const response = await fetch(`${d.gw.url}/dashboard/api/pricing`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${d.key}` },
      body: JSON.stringify(price),
    });
    assertEquals(response.status, 200, await response.text());
  }
}

/** Types a model and picks a request kind; returns the kind's runner. */
async function pick(d: Dashboard, model: string, kind: string): Promise<Locator> {
  const screen = d.page.locator("gw-playground-screen");
  await screen.locator("input[name=model]").fill(model);
  await screen.locator("select[name=kind]").selectOption(kind);
  const run = screen.locator("gw-playground-run");
  await run.waitFor();
  return run;
}

/** The kinds the kind picker offers now. */
function offeredKinds(d: Dashboard): Promise<string[]> {
  return d.page.locator("gw-playground-screen select[name=kind] option").evaluateAll((options) =>
    options.map((o) => (o as HTMLOptionElement).value)
  );
}

/** Presses Send and waits for the answer's request-log row (tokens, cost and account shown). */
async function sendAndSettle(run: Locator, status = "HTTP 200"): Promise<void> {
  await run.locator("[data-testid=pg-send]").click();
  await run.locator("[data-testid=pg-status]", { hasText: status }).waitFor();
  await run.locator("[data-testid=pg-account]", { hasText: "acct-a" }).waitFor();
}

/** The texts of a run's tokens, units and cost. */
async function metering(run: Locator): Promise<string[]> {
  const units = run.locator("[data-testid=pg-units]");
  return [
    await run.locator("[data-testid=pg-tokens]").innerText(),
    (await units.count()) === 0 ? "" : await units.innerText(),
    await run.locator("[data-testid=pg-cost]").innerText(),
  ];
}

Deno.test({
  ...options,
  name:
    "playground kinds: embeddings, an image, speech, a transcription, rerank and a completion show results, units and cost",
  fn: async () => {
    await using d = await openDashboard({ models: MODELS });
    await setPrices(d);
    d.gw.management.settings.apply({ server_require_api_key: "true" });
    d.mock.script({ handler: answerEveryKind });
    await d.signIn("/dashboard/ui/playground");
    const screen = d.page.locator("gw-playground-screen");

    // A chat model offers chat and legacy completions; an embedding model only embeddings.
    await screen.locator("input[name=model]").fill("p/m1");
    assertEquals(await offeredKinds(d), ["chat", "completions"]);

    const embeddings = await pick(d, "p/text-embedding-3-small", "embeddings");
    assertEquals(await offeredKinds(d), ["embeddings"]);
    await embeddings.locator("textarea[name=input]").fill("alpha\nbeta");
    await sendAndSettle(embeddings);
    assertEquals(await embeddings.locator("[data-testid=pg-vectors]").innerText(), "2");
    assertEquals(await embeddings.locator("[data-testid=pg-dimensions]").innerText(), "3");
    assertEquals(await embeddings.locator("[data-testid=pg-answer]").innerText(), "0.5000, 0.2500, 0.1250");
    assertEquals(await metering(embeddings), ["40 / 0", "2 vectors", "$0.04"]);
    assertEquals(d.mock.requests.at(-1)?.body.input, ["alpha", "beta"]);
    assertStringIncludes(await embeddings.locator("[data-testid=pg-raw-response]").innerText(), "0.125");

    const images = await pick(d, "p/dall-e-3", "images");
    await images.locator("textarea[name=prompt]").fill("a red apple");
    await sendAndSettle(images);
    const image = images.locator("[data-testid=pg-images] img");
    assertEquals(await image.getAttribute("src"), `data:image/png;base64,${PNG_B64}`);
    await d.page.waitForFunction(
      (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth === 1,
      await image.elementHandle(),
    );
    assertEquals(await metering(images), ["0 / 0", "1 image", "$0.07"]);
    assertEquals(d.mock.requests.at(-1)?.body.prompt, "a red apple");
    // With an image picked, the same form sends an edit as a multipart upload.
    await images.locator("input[name=image]").setInputFiles({
      name: "apple.png",
      mimeType: "image/png",
      buffer: Buffer.from(PNG_B64, "base64"),
    });
    await images.locator("textarea[name=prompt]").fill("make it green");
    await sendAndSettle(images);
    assertStringIncludes(
      await images.locator("h3", { hasText: "Raw request" }).innerText(),
      "/v1/images/edits",
    );
    assertStringIncludes(await images.locator("[data-testid=pg-raw-request]").innerText(), "(file apple.png");
    assertEquals(await images.locator("[data-testid=pg-images] img").count(), 1);
    const edit = d.mock.requests.at(-1);
    assertEquals(edit?.path, "/v1/images/edits");
    assertStringIncludes(edit?.headers.get("content-type") ?? "", "multipart/form-data");

    const speech = await pick(d, "p/tts-1", "speech");
    await speech.locator("textarea[name=input]").fill("Hello from the gateway.");
    await sendAndSettle(speech);
    const played = await speech.locator("[data-testid=pg-audio]").evaluate(async (audio) => {
      const bytes = await (await fetch((audio as HTMLAudioElement).src)).arrayBuffer();
      return [...new Uint8Array(bytes)];
    });
    assertEquals(played, AUDIO_BYTES, "the player holds the upstream's audio bytes");
    assertEquals(await speech.locator("[data-testid=pg-raw-response]").innerText(), "(audio/mpeg, 8 bytes)");
    assertEquals(await metering(speech), ["0 / 0", "23 characters", "$2.30"]);
    assertEquals(d.mock.requests.at(-1)?.body.voice, "alloy");

    const transcription = await pick(d, "p/whisper-1", "transcription");
    assertEquals(await offeredKinds(d), ["transcription", "translation"]);
    await transcription.locator("input[name=file]").setInputFiles({
      name: "hello.wav",
      mimeType: "audio/wav",
      buffer: Buffer.from([0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0]),
    });
    await sendAndSettle(transcription);
    assertEquals(
      await transcription.locator("[data-testid=pg-answer]").innerText(),
      "Hello from the recording",
    );
    assertEquals(await metering(transcription), ["0 / 0", "120 s of audio", "$0.12"]);
    assertStringIncludes(
      await transcription.locator("[data-testid=pg-raw-request]").innerText(),
      "(file hello.wav, audio/wav, 8 bytes)",
    );
    const upload = d.mock.requests.at(-1);
    assertEquals(upload?.path, "/v1/audio/transcriptions");
    assertStringIncludes(upload?.headers.get("content-type") ?? "", "multipart/form-data");

    const rerank = await pick(d, "p/rerank-v3.5", "rerank");
    await rerank.locator("input[name=query]").fill("fruit");
    await rerank.locator("textarea[name=documents]").fill("a stone\nan apple");
    await sendAndSettle(rerank);
    const ranked = await rerank.locator("[data-testid=pg-ranked] li").allInnerTexts();
    assertEquals(ranked, ["0.910 an apple", "0.120 a stone"]);
    assertEquals(await metering(rerank), ["0 / 0", "1 search unit", "$0.50"]);
    assertEquals(d.mock.requests.at(-1)?.body.documents, ["a stone", "an apple"]);

    const completions = await pick(d, "p/m1", "completions");
    await completions.locator("textarea[name=prompt]").fill("Say something");
    await completions.locator("input[name=stream]").uncheck();
    await sendAndSettle(completions);
    assertEquals(await completions.locator("[data-testid=pg-answer]").innerText(), "a completed prompt");
    assertEquals(await metering(completions), ["12 / 8", "", "$0.02"]);
    const chat = d.mock.requests.at(-1)?.body as { messages: { content: string }[] };
    assertEquals(chat.messages.at(-1)?.content, "Say something");
    // Streamed: the text grows from the completion chunks, usage from the last one.
    await completions.locator("input[name=stream]").check();
    await completions.locator("[data-testid=pg-send]").click();
    await completions.locator("[data-testid=pg-answer]", { hasText: "streamed words" }).waitFor();
    await completions.locator("[data-testid=pg-tokens]", { hasText: "30 / 10" }).waitFor();
    assertEquals(await completions.locator("[data-testid=pg-cost]").innerText(), "$0.04");
    assertStringIncludes(await completions.locator("[data-testid=pg-raw-response]").innerText(), "data:");

    assertEquals(d.mock.requests.length, 8, "one upstream call per request");
    assertEquals(d.consoleErrors, []);
  },
});

Deno.test({
  ...options,
  name: "playground kinds: a chat model asked for embeddings shows the gateway's 400 and calls no upstream",
  fn: async () => {
    await using d = await openDashboard({ models: ["m1", "text-embedding-3-small"] });
    d.gw.management.settings.apply({ server_require_api_key: "true" });
    await d.signIn("/dashboard/ui/playground");
    // A model the listing does not know offers every kind; the gateway decides.
    const run = await pick(d, "p/gpt-4o", "embeddings");
    await run.locator("[data-testid=pg-send]").click();
    await run.locator("[data-testid=pg-status]", { hasText: "HTTP 400" }).waitFor();
    const error = await run.locator("[data-testid=pg-error]").innerText();
    assert(/chat/i.test(error), `the error names the model's kind: ${error}`);
    assertEquals(d.mock.requests.length, 0, "nothing reached the upstream");

    // A form that cannot make a request says why before sending.
    await run.locator("textarea[name=input]").fill("");
    await run.locator("[data-testid=pg-send]").click();
    assertEquals(
      await run.locator("[data-testid=pg-form-error]").innerText(),
      "Give at least one input text",
    );
  },
});
