import { parseRequestFilter } from "../features/request_logs/filter.ts";
import { requestRowView } from "../features/request_logs/state.ts";
import type { RequestRow } from "../storage/mod.ts";
import { numberFlag, parseCommandArgs, stringFlag } from "./args.ts";
import { configForCommand, openStore } from "./context.ts";
import { type CliIo, EXIT_OK, UsageError } from "./io.ts";

/** Help text of `gateway logs`. */
export const LOGS_HELP = `Usage:
  gateway logs tail [--model <m>] [--key <name|id|none>] [--status 2xx|4xx|5xx|0] [--provider <id>]
      [--account <id>] [--surface <format>] [--stream true|false] [--text <in bodies>]
      [--last <n>] [--count <n>] [--json] [--config <file>]

Prints the requests of the gateway(s) on this database as they finish, one line each (time, status, client
format, model, account, key, tokens, cost, time to first byte, latency, the attempt chain), filtered like the
dashboard's Request logs screen. --last shows the newest n matching requests first; --count exits after n
lines (for scripts); otherwise it follows until Ctrl-C. --json prints one JSON object per line.`;

/** How often the database is read for new requests (rows are written in batches every 0.5 s). */
const POLL_MS = 500;
/** Rows read per poll. */
const POLL_ROWS = 500;

/** `gateway logs …` */
export async function logsCommand(args: readonly string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  if (
    sub === undefined || sub === "--help" || sub === "-h" || rest.includes("--help") || rest.includes("-h")
  ) {
    io.out(LOGS_HELP);
    return sub === undefined ? 2 : EXIT_OK;
  }
  if (sub !== "tail") throw new UsageError(`logs: unknown subcommand "${sub}" (tail)`);
  const { values, positionals } = parseCommandArgs(rest, {
    model: { type: "string" },
    key: { type: "string" },
    status: { type: "string" },
    provider: { type: "string" },
    account: { type: "string" },
    surface: { type: "string" },
    stream: { type: "string" },
    text: { type: "string" },
    last: { type: "string" },
    count: { type: "string" },
    json: { type: "boolean" },
  }, "logs tail");
  if (positionals.length > 0) throw new UsageError(`logs tail: unexpected argument "${positionals[0]}"`);
  const last = wholeNumber(numberFlag(values, "last", "logs tail"), "last") ?? 0;
  const count = wholeNumber(numberFlag(values, "count", "logs tail"), "count");
  const query = new URLSearchParams();
  for (const name of ["model", "key", "status", "provider", "account", "surface", "stream"]) {
    const value = stringFlag(values, name);
    if (value !== undefined) query.set(name, value);
  }
  const text = stringFlag(values, "text");
  if (text !== undefined) query.set("q", text);
  const store = openStore(configForCommand(stringFlag(values, "config"), io), io);
  try {
    const filter = parseRequestFilter(query, (name) => store.keys.findByName(name)?.id);
    const print = (row: RequestRow) =>
      io.out(values.json ? JSON.stringify(requestRowView(row)) : lineOf(row));
    let printed = 0;
    let after = store.requests.lastId();
    if (last > 0) {
      const recent = store.requests.page(filter, Math.min(last, count ?? last)).rows.toReversed();
      for (const row of recent) print(row);
      printed += recent.length;
    }
    while (count === undefined || printed < count) {
      // Everything up to `top` is committed; rows above it are read on the next poll. Remembering `top`,
      // not the last match, keeps a filter that matches nothing from rescanning the same rows.
      const top = store.requests.lastId();
      const rows = store.requests.writtenAfter(filter, after, POLL_ROWS).filter((row) => row.id <= top);
      after = rows.length === POLL_ROWS ? rows[POLL_ROWS - 1].id : top;
      for (const row of rows.slice(0, count === undefined ? undefined : count - printed)) {
        print(row);
        printed++;
      }
      if (count !== undefined && printed >= count) break;
      if (rows.length < POLL_ROWS) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    return EXIT_OK;
  } finally {
    store.close();
  }
}

function wholeNumber(value: number | undefined, name: string): number | undefined {
  if (value !== undefined && (!Number.isInteger(value) || value < 1)) {
    throw new UsageError(`logs tail: --${name} must be a whole number from 1`);
  }
  return value;
}

/** One request as a terminal line. */
function lineOf(r: RequestRow): string {
  const time = new Date(r.ts).toISOString().replace("T", " ").slice(0, 19);
  const chain = r.chain.length > 1
    ? `  [${r.chain.map((a) => `${a.accountId} ${a.status || "error"}`).join(" → ")}]`
    : "";
  const ttft = r.ttftMs < 0 ? "-" : `${r.ttftMs}ms`;
  return `${time}  ${String(r.status || "---").padEnd(3)}  ${r.clientFormat.padEnd(16)} ${r.model}  ${
    r.accountId || "-"
  }  ${r.clientKeyLabel}  in ${r.inputTokens} out ${r.outputTokens}  $${
    r.cost.toFixed(6)
  }  ttft ${ttft}  ${r.latencyMs}ms${r.streamed ? "  stream" : ""}${chain}${
    r.error ? `  ${r.error.slice(0, 200)}` : ""
  }`;
}
