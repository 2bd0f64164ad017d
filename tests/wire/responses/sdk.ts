/**
 * Runs wire output through the official openai SDK, the way clients of `/v1/responses` read it.
 * The SDK is imported dynamically: its bundled Node typings clash with tests/helpers/assert.ts when
 * both are in one type-checked graph, so the few members used here are typed locally.
 */

interface ResponseLike {
  readonly output_text: string;
  readonly status?: string | null;
  readonly output: readonly Record<string, unknown>[];
  readonly usage?: unknown;
}

interface SdkClient {
  readonly responses: {
    create(params: Record<string, unknown>): Promise<ResponseLike>;
    stream(params: Record<string, unknown>): { finalResponse(): Promise<ResponseLike> };
  };
}

type SdkConstructor = new (options: Record<string, unknown>) => SdkClient;

async function client(body: string, contentType: string): Promise<SdkClient> {
  const specifier = "openai";
  const { default: OpenAI } = (await import(specifier)) as { default: SdkConstructor };
  return new OpenAI({
    apiKey: "test",
    baseURL: "http://gateway.test/v1",
    maxRetries: 0,
    fetch: () => Promise.resolve(new Response(body, { headers: { "content-type": contentType } })),
  });
}

/** What `client.responses.create()` returns for a non-stream body. */
export async function sdkCreate(body: unknown): Promise<ResponseLike> {
  return await (await client(JSON.stringify(body), "application/json")).responses.create({
    model: "m",
    input: "x",
  });
}

/** What `client.responses.stream().finalResponse()` returns for SSE text. */
export async function sdkStream(sseText: string): Promise<ResponseLike> {
  const sdk = await client(sseText, "text/event-stream");
  return await sdk.responses.stream({ model: "m", input: "x" }).finalResponse();
}
