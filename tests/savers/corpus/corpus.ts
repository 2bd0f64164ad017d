import type { Message, NeutralRequest } from "../../../src/model/mod.ts";

/**
 * Where an output came from: `captured` is what a real tool printed on this machine (some on a scratch
 * input made for the purpose); `synthetic` is text a generator wrote in the shape of such output.
 */
export type CorpusOrigin = "captured" | "synthetic";

/** One realistic tool output and the tool call an agent would have made to get it. */
export interface CorpusEntry {
  readonly name: string;
  readonly command: string;
  readonly origin: CorpusOrigin;
  readonly output: string;
}

const DIR = new URL("../../fixtures/agent_outputs/", import.meta.url);

// The command each file's output came from, and whether a real tool printed it here. Most were run on
// this repository and this machine; service_log.txt was written by a generator in the shape of the
// gateway's own log (its host, api.example.test, does not exist).
const SOURCES: Readonly<Record<string, { command: string; origin: CorpusOrigin }>> = {
  deno_check_errors: { command: "deno check bad.ts", origin: "captured" },
  deno_test_failure: { command: "deno test fail_test.ts", origin: "captured" },
  // A 60-case parametrised suite with one failing case and one slow one, run with NO_COLOR=1.
  deno_test_params: { command: "deno test order_codec_test.ts", origin: "captured" },
  deno_test_run: { command: "deno test -A tests/routing", origin: "captured" },
  file_read_cat_n: { command: "cat -n src/gateway/request_lifecycle.ts", origin: "captured" },
  file_read_plain: { command: "cat src/wire/responses/stream_encode.ts", origin: "captured" },
  find_files: { command: "find src tests -type f | sort", origin: "captured" },
  git_diff: { command: "git diff HEAD~6 HEAD -- src/", origin: "captured" },
  git_log_stat: { command: "git log -n 40 --stat", origin: "captured" },
  git_status: { command: "git status", origin: "captured" },
  grep_exports: { command: 'grep -rn "export function" src/', origin: "captured" },
  // The stderr of a small JSON service on Python's http.server, driven by curl: 200 health checks with
  // one 500, then 90 order lookups with one 404, then health checks again.
  http_server_log: { command: "tail -n 300 /tmp/orders-service.log", origin: "captured" },
  ls_usr_bin: { command: "ls -la /usr/bin", origin: "captured" },
  npm_install_http: { command: "npm i --loglevel http express@4", origin: "captured" },
  service_log: { command: "tail -n 320 /var/log/gateway.log", origin: "synthetic" },
  tree_src: { command: "tree src", origin: "captured" },
};

/** The case: a 400-line numbered file with one line in the middle that breaks the pattern. */
export function numberedFileWithNeedle(): CorpusEntry {
  const lines = Array.from({ length: 400 }, (_, i) => `${String(i + 1).padStart(6)}\tline ${i + 1}`);
  lines[211] = `${String(212).padStart(6)}\tconst secretHandshake = "zebra-quartz-1994";`;
  return {
    name: "numbered_400_lines",
    command: "cat -n numbers.txt",
    origin: "synthetic",
    output: lines.join("\n"),
  };
}

/**
 * A payment worker's log, where the values are the information: a batch of upstream calls among whose
 * 200s one answers 500 and one is slow, then one line per charged order (every order id and amount
 * different), then heartbeats that differ only in their timestamps.
 */
export function orderWorkerLog(): CorpusEntry {
  const lines: string[] = [];
  let second = 0;
  const at = () => {
    const s = second++;
    const clock = `${String(Math.floor(s / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
    return `2026-11-25T09:${clock}.${String((s * 37) % 1000).padStart(3, "0")}Z`;
  };
  lines.push(`${at()} INFO  worker batch 88 started: 70 orders`);
  for (let i = 0; i < 70; i++) {
    const status = i === 53 ? 500 : 200;
    const took = i === 21 ? 2307 : 38 + ((i * 7) % 11);
    lines.push(`${at()} INFO  payments POST /v1/charges status=${status} took=${took}ms`);
  }
  for (let i = 0; i < 70; i++) {
    const order = 731_004 + i * 3;
    lines.push(`${at()} INFO  worker charged order_id=${order} amount_cents=${1999 + i * 100}`);
  }
  lines.push(`${at()} WARN  worker batch 88 finished: 69 charged, 1 failed (will retry in 30s)`);
  for (let i = 0; i < 60; i++) lines.push(`${at()} DEBUG worker heartbeat queue_depth=0`);
  return {
    name: "order_worker_log",
    command: "tail -n 202 /var/log/payments-worker.log",
    origin: "synthetic",
    output: lines.join("\n"),
  };
}

/** Every output file plus the generated cases, sorted by name. */
export async function loadCorpus(): Promise<CorpusEntry[]> {
  const entries: CorpusEntry[] = [numberedFileWithNeedle(), orderWorkerLog()];
  for await (const file of Deno.readDir(DIR)) {
    if (!file.name.endsWith(".txt")) continue;
    const name = file.name.slice(0, -4);
    const output = await Deno.readTextFile(new URL(file.name, DIR));
    const source = SOURCES[name];
    if (!source) throw new Error(`${file.name}: say in SOURCES where this output came from`);
    entries.push({ name, ...source, output });
  }
  return entries.sort((a, b) => a.name.localeCompare(b.name));
}

/** An agent turn around one tool output: the ask, the tool call, its result, and the next ask. */
export function transcript(entry: CorpusEntry): NeutralRequest {
  const callId = `call_${entry.name}`;
  const messages: Message[] = [
    { role: "user", parts: [{ kind: "text", text: `Please look into this: run \`${entry.command}\`.` }] },
    {
      role: "assistant",
      parts: [{
        kind: "toolCall",
        id: callId,
        name: "bash",
        arguments: JSON.stringify({ command: entry.command }),
      }],
    },
    {
      role: "tool",
      parts: [{ kind: "toolResult", callId, content: [{ kind: "text", text: entry.output }] }],
    },
  ];
  return {
    model: "p/model",
    system: [{ kind: "text", text: "You are a coding agent with a bash tool." }],
    messages,
    tools: [],
    params: {},
    stream: false,
    source: "messages",
  };
}

/** The text of every tool result in a request, in order. */
export function toolResultTexts(request: NeutralRequest): string[] {
  const out: string[] = [];
  for (const message of request.messages) {
    for (const part of message.parts) {
      if (part.kind !== "toolResult") continue;
      for (const item of part.content) if (item.kind === "text") out.push(item.text);
    }
  }
  return out;
}
