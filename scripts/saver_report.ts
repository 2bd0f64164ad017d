/**
 * Prints what each token saver saves (prompt tokens) and removes (information-bearing tool-output
 * lines lost) on the agent-transcript corpus in tests/fixtures/agent_outputs. Run:
 * `deno run -A scripts/saver_report.ts [--headroom http://127.0.0.1:8787]`. The numbers in the README
 * and docs/savers.md come from here. Headroom is an external service: it is measured only when its URL
 * is given (a running `headroom proxy`), through the gateway's own Headroom saver.
 */
import { type CorpusEntry, loadCorpus } from "../tests/savers/corpus/corpus.ts";
import {
  headroomMeasured,
  measure,
  MEASURED_SAVERS,
  type SaverMeasurement,
} from "../tests/savers/corpus/measure_savers.ts";
import type { Saver } from "../src/savers/types.ts";

const at = Deno.args.indexOf("--headroom");
const headroomUrl = at >= 0 ? Deno.args[at + 1] : undefined;
const savers: Saver[] = [...MEASURED_SAVERS];
if (headroomUrl) savers.push(headroomMeasured(headroomUrl));

const corpus = await loadCorpus();
const results = new Map<string, SaverMeasurement[]>();
for (const saver of savers) {
  const list: SaverMeasurement[] = [];
  for (const entry of corpus) list.push(await measure(saver, entry));
  results.set(saver.name, list);
}

const pct = (before: number, after: number) => `${(((before - after) / before) * 100).toFixed(1)} %`;
const perOutput = savers.filter((saver) => saver.name === "rtk" || saver.name === "headroom");
const header = perOutput.map((s) => `${s.name} after | ${s.name} saved | ${s.name} lines lost`).join(" | ");
console.log(`| output | origin | tokens | ${header} |`);
console.log(`| --- | --- | ---: | ${perOutput.map(() => "---: | ---: | ---:").join(" | ")} |`);
corpus.forEach((entry: CorpusEntry, i) => {
  const cells = perOutput.map((saver) => {
    const m = (results.get(saver.name) ?? [])[i];
    return `${m.tokensAfter} | ${pct(m.tokensBefore, m.tokensAfter)} | ${m.lost.length}`;
  });
  const before = (results.get("rtk") ?? [])[i].tokensBefore;
  console.log(`| ${entry.name} | ${entry.origin} | ${before} | ${cells.join(" | ")} |`);
});

console.log("\n| saver | tokens before | tokens after | saved | information-bearing lines lost |");
console.log("| --- | ---: | ---: | ---: | ---: |");
for (const saver of savers) {
  const list = results.get(saver.name) ?? [];
  const before = list.reduce((sum, m) => sum + m.tokensBefore, 0);
  const after = list.reduce((sum, m) => sum + m.tokensAfter, 0);
  const lost = list.reduce((sum, m) => sum + m.lost.length, 0);
  console.log(`| ${saver.name} | ${before} | ${after} | ${pct(before, after)} | ${lost} |`);
}

if (Deno.args.includes("--lost")) {
  for (const [name, list] of results) {
    for (const m of list) for (const line of m.lost) console.log(`lost\t${name}\t${m.entry}\t${line}`);
  }
}
