import type { Message, NeutralRequest } from "../../../src/model/mod.ts";

/** One realistic tool output and the tool call an agent would have made to get it. */
export interface CorpusEntry {
  readonly name: string;
  readonly command: string;
  readonly output: string;
}

const DIR = new URL("../../fixtures/agent_outputs/", import.meta.url);

// The command each captured output came from (they were run on this repository and this machine).
const COMMANDS: Readonly<Record<string, string>> = {
  deno_check_errors: "deno check bad.ts",
  deno_test_failure: "deno test fail_test.ts",
  deno_test_run: "deno test -A tests/routing",
  file_read_cat_n: "cat -n src/gateway/request_lifecycle.ts",
  file_read_plain: "cat src/wire/responses/stream_encode.ts",
  find_files: "find src tests -type f | sort",
  git_diff: "git diff HEAD~6 HEAD -- src/",
  git_log_stat: "git log -n 40 --stat",
  git_status: "git status",
  grep_exports: 'grep -rn "export function" src/',
  ls_usr_bin: "ls -la /usr/bin",
  npm_install_http: "npm i --loglevel http express@4",
  service_log: "tail -n 320 /var/log/gateway.log",
  tree_src: "tree src",
};

/** The case: a 400-line numbered file with one line in the middle that breaks the pattern. */
export function numberedFileWithNeedle(): CorpusEntry {
  const lines = Array.from({ length: 400 }, (_, i) => `${String(i + 1).padStart(6)}\tline ${i + 1}`);
  lines[211] = `${String(212).padStart(6)}\tconst secretHandshake = "zebra-quartz-1994";`;
  return { name: "numbered_400_lines", command: "cat -n numbers.txt", output: lines.join("\n") };
}

/** Every captured output plus the synthetic needle case, sorted by name. */
export async function loadCorpus(): Promise<CorpusEntry[]> {
  const entries: CorpusEntry[] = [numberedFileWithNeedle()];
  for await (const file of Deno.readDir(DIR)) {
    if (!file.name.endsWith(".txt")) continue;
    const name = file.name.slice(0, -4);
    const output = await Deno.readTextFile(new URL(file.name, DIR));
    entries.push({ name, command: COMMANDS[name] ?? name, output });
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
