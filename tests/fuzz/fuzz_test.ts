/**
 * The fuzzer's small run inside `deno task test`: a few hundred hostile inputs per client surface and
 * per hostile-upstream mode; any 500, hang, stack trace, empty 200 or foreign 4xx envelope fails it.
 * The health probe's maximum is printed, not asserted (timing belongs to `deno task fuzz`).
 */
import { assertEquals } from "../helpers/assert.ts";
import { runFuzz, summaryTable } from "./run_fuzz.ts";

Deno.test("fuzz: hostile clients and hostile upstreams get no 500, no hang, no stack trace, no empty 200", async () => {
  const report = await runFuzz({
    seed: 7,
    count: 120,
    big: false,
    campaignMs: 8_000,
    timeoutMs: 20_000,
    concurrency: 4,
    childProcess: false,
  });
  console.log(summaryTable(report));
  const findings = report.campaigns.flatMap((c) =>
    c.findings.map((f) => `${c.name} #${f.index} ${f.label}: ${f.problem}`)
  );
  assertEquals(findings, []);
});
