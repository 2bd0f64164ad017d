/**
 * Prints what each local token saver saves (prompt tokens) and removes (information-bearing tool-output
 * lines lost) on the agent-transcript corpus in tests/fixtures/agent_outputs. Run:
 * `deno run -A scripts/saver_report.ts`. The numbers in the README and docs/savers.md come from here.
 */
import { loadCorpus } from "../tests/savers/corpus/corpus.ts";
import { measure, MEASURED_SAVERS } from "../tests/savers/corpus/measure_savers.ts";

const corpus = await loadCorpus();
const pct = (before: number, after: number) => `${(((before - after) / before) * 100).toFixed(1)} %`;
console.log("| output | tokens | RTK after | RTK saved | lines lost |");
console.log("| --- | ---: | ---: | ---: | ---: |");
for (const entry of corpus) {
  const m = await measure(MEASURED_SAVERS[0], entry);
  console.log(
    `| ${entry.name} | ${m.tokensBefore} | ${m.tokensAfter} | ${
      pct(m.tokensBefore, m.tokensAfter)
    } | ${m.lost.length} |`,
  );
}
console.log("\n| saver | tokens before | tokens after | saved | information-bearing lines lost |");
console.log("| --- | ---: | ---: | ---: | ---: |");
for (const saver of MEASURED_SAVERS) {
  let before = 0;
  let after = 0;
  let lost = 0;
  for (const entry of corpus) {
    const m = await measure(saver, entry);
    before += m.tokensBefore;
    after += m.tokensAfter;
    lost += m.lost.length;
  }
  console.log(`| ${saver.name} | ${before} | ${after} | ${pct(before, after)} | ${lost} |`);
}
