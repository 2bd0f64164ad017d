/** Small builders for chat-completions upstream answers used across data-plane tests. */

/** A non-stream chat completion. */
export function chatCompletion(
  text: string,
  usage = { prompt_tokens: 10, completion_tokens: 5 },
  extra = {},
) {
  return {
    id: "chatcmpl-upstream-1",
    object: "chat.completion",
    created: 1700000000,
    model: "m1",
    choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    ...extra,
  };
}

/** A chat chunk with one delta. */
export function chatChunk(delta: Record<string, unknown>, finish: string | null = null, extra = {}) {
  return {
    id: "chatcmpl-upstream-1",
    object: "chat.completion.chunk",
    created: 1700000000,
    model: "m1",
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...extra,
  };
}

/** Rows of the usage table once rows waiting for the tokenizer are recorded and the writer is flushed. */
export async function usageRows(
  gw: {
    runtime: {
      recorder: { settled(): Promise<void> };
      writer: { flush(): void };
      control: { store: { db: import("../../src/storage/mod.ts").SqlDatabase } };
    };
  },
) {
  await gw.runtime.recorder.settled();
  gw.runtime.writer.flush();
  return gw.runtime.control.store.db.prepare("SELECT * FROM usage ORDER BY id").all() as Record<
    string,
    unknown
  >[];
}

/** POSTs JSON to the gateway. */
export function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}
