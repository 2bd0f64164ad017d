/**
 * `deno task fuzz`: the long run. At least 5,000 inputs per client surface and per hostile-upstream
 * mode (each campaign also bounded in time), the gateway in a child process, a summary table at the end.
 * Flags: --count N, --seed N, --minutes-per-campaign N, --concurrency N, --only <campaign name part>.
 * Exits 1 when any rule was broken.
 */
import { runFuzz, summaryTable } from "./run_fuzz.ts";

function flag(name: string, fallback: number): number {
  const at = Deno.args.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(Deno.args[at + 1]);
}

const seed = flag("seed", 20);
const report = await runFuzz({
  seed,
  count: flag("count", 5_000),
  big: true,
  campaignMs: flag("minutes-per-campaign", 3) * 60_000,
  timeoutMs: 30_000,
  concurrency: flag("concurrency", 8),
  childProcess: true,
  only: Deno.args.includes("--only") ? Deno.args[Deno.args.indexOf("--only") + 1] : undefined,
  onCampaign: (c) =>
    console.error(
      `${c.name}: ${c.inputs} inputs, ${c.status500} × 500, ${c.hangs} hangs, ${c.findings.length} findings, ` +
        `health ≤ ${c.maxHealthWaitMs?.toFixed(1)} ms`,
    ),
});
console.log(summaryTable(report));
const findings = report.campaigns.flatMap((c) => c.findings.map((f) => ({ campaign: c.name, ...f })));
for (const finding of findings.slice(0, 50)) {
  console.log(`\n[${finding.campaign} #${finding.index} seed ${seed}] ${finding.label}: ${finding.problem}`);
  console.log(`  POST ${finding.path}\n  body starts: ${JSON.stringify(finding.bodyStart.slice(0, 200))}`);
}
if (findings.length > 0) Deno.exit(1);
