import { auditCsv, auditFilter, auditJsonl } from "../features/audit/state.ts";
import { parseCommandArgs, stringFlag } from "./args.ts";
import { withManagement } from "./context.ts";
import { type CliIo, EXIT_OK } from "./io.ts";

/** Help text of `gateway audit`. */
export const AUDIT_HELP = `Usage:
  gateway audit [--actor <name>] [--action <action|prefix.>] [--target <target>]
                [--since <date|ms>] [--until <date|ms>] [--limit <n>] [--csv|--jsonl]

Lists the audit log, newest first (100 rows unless --limit, at most 1000): who changed what, when,
from where, with before and after (secrets redacted). --action key. matches every key action.`;

/** `gateway audit …` */
export function auditCommand(args: readonly string[], io: CliIo): number {
  const { values } = parseCommandArgs(args, {
    actor: { type: "string" },
    action: { type: "string" },
    target: { type: "string" },
    since: { type: "string" },
    until: { type: "string" },
    limit: { type: "string" },
    csv: { type: "boolean" },
    jsonl: { type: "boolean" },
  }, "audit");
  if (values.help) {
    io.out(AUDIT_HELP);
    return EXIT_OK;
  }
  const query: Record<string, string> = {};
  for (const name of ["actor", "action", "target", "since", "until", "limit"]) {
    const value = stringFlag(values, name);
    if (value !== undefined) query[name] = value;
  }
  const filter = auditFilter(query);
  return withManagement(stringFlag(values, "config"), io, (manage) => {
    const rows = manage.audit.list(filter);
    if (values.csv) io.out(auditCsv(rows).trimEnd());
    else if (values.jsonl) io.out(auditJsonl(rows).trimEnd());
    else if (rows.length === 0) io.out("No audit rows match.");
    else {
      for (const r of rows) {
        io.out(
          `${
            new Date(r.ts).toISOString()
          }  ${r.actor} (${r.actorKind}) ${r.address}  ${r.action}  ${r.target}`,
        );
      }
    }
    return EXIT_OK;
  });
}
