/**
 * A strict parser of the Prometheus text exposition format (0.0.4), for tests: it throws on anything a
 * Prometheus server would reject or misread (bad names, bad escapes, samples before their TYPE, a family
 * split in two, duplicate series, histograms without +Inf or with buckets going down, a count that is
 * not the +Inf bucket).
 */

/** One sample line. */
export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** One family: its TYPE, HELP and samples. */
export interface PromFamily {
  readonly name: string;
  readonly type: "counter" | "gauge" | "histogram" | "summary" | "untyped";
  readonly help: string;
  readonly samples: Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** Parses exposition text into families by name. */
export function parsePrometheusText(text: string): Map<string, PromFamily> {
  if (!text.endsWith("\n")) throw new Error("exposition text must end with a newline");
  const families = new Map<string, PromFamily>();
  const closed = new Set<string>();
  let current: PromFamily | null = null;
  const seen = new Set<string>();
  text.slice(0, -1).split("\n").forEach((line, i) => {
    const at = `line ${i + 1}: `;
    if (line === "") throw new Error(`${at}empty line`);
    if (line.startsWith("#")) {
      const m = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
      if (!m) return; // a plain comment
      const [, kind, name, rest] = m;
      if (!NAME.test(name)) throw new Error(`${at}bad metric name ${name}`);
      let family = families.get(name);
      if (family === undefined) {
        if (closed.has(name)) throw new Error(`${at}family ${name} appears twice`);
        family = { name, type: "untyped", help: "", samples: [] };
        families.set(name, family);
      } else if (family.samples.length > 0) throw new Error(`${at}${kind} of ${name} after its samples`);
      if (current !== null && current !== family) closed.add(current.name);
      current = family;
      if (kind === "TYPE") {
        if (!["counter", "gauge", "histogram", "summary", "untyped"].includes(rest)) {
          throw new Error(`${at}bad type ${rest}`);
        }
        (family as { type: string }).type = rest;
      } else {
        (family as { help: string }).help = rest;
      }
      return;
    }
    const sample = parseSample(line, at);
    const family = familyOf(sample.name, families);
    if (family === undefined) throw new Error(`${at}sample ${sample.name} without a TYPE line`);
    if (family !== current) throw new Error(`${at}sample of ${family.name} outside its family's block`);
    const key = sample.name + JSON.stringify(Object.entries(sample.labels).sort());
    if (seen.has(key)) throw new Error(`${at}duplicate series ${key}`);
    seen.add(key);
    family.samples.push(sample);
  });
  for (const family of families.values()) if (family.type === "histogram") checkHistogram(family);
  return families;
}

function familyOf(name: string, families: Map<string, PromFamily>): PromFamily | undefined {
  const direct = families.get(name);
  if (direct !== undefined && direct.type !== "histogram") return direct;
  for (const suffix of ["_bucket", "_sum", "_count"]) {
    if (!name.endsWith(suffix)) continue;
    const base = families.get(name.slice(0, -suffix.length));
    if (base?.type === "histogram") return base;
  }
  return direct?.type === "histogram" ? undefined : direct;
}

function parseSample(line: string, at: string): Sample {
  const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})? (\S+)( -?\d+)?$/.exec(line);
  if (!m) throw new Error(`${at}bad sample line: ${line}`);
  const labels: Record<string, string> = {};
  if (m[2] !== undefined) {
    let rest = m[2].slice(1, -1);
    while (rest !== "") {
      const lm = /^([^=]+)="((?:[^"\\]|\\.)*)"(,|$)/.exec(rest);
      if (!lm) throw new Error(`${at}bad labels: ${m[2]}`);
      const [all, name, raw] = lm;
      if (!LABEL_NAME.test(name)) throw new Error(`${at}bad label name ${name}`);
      if (name in labels) throw new Error(`${at}label ${name} twice`);
      if (/\\[^\\"n]/.test(raw)) throw new Error(`${at}bad escape in ${raw}`);
      labels[name] = raw.replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c));
      rest = rest.slice(all.length);
    }
  }
  const text = m[3];
  const value = text === "+Inf"
    ? Infinity
    : text === "-Inf"
    ? -Infinity
    : text === "NaN"
    ? NaN
    : Number(text);
  if (Number.isNaN(value) && text !== "NaN") throw new Error(`${at}bad value ${text}`);
  return { name: m[1], labels, value };
}

function checkHistogram(family: PromFamily): void {
  const bySeries = new Map<string, { buckets: [number, number][]; sum?: number; count?: number }>();
  for (const s of family.samples) {
    const { le, ...rest } = s.labels;
    const key = JSON.stringify(Object.entries(rest).sort());
    const entry = bySeries.get(key) ?? { buckets: [] };
    bySeries.set(key, entry);
    if (s.name === `${family.name}_bucket`) {
      if (le === undefined) throw new Error(`${family.name}: bucket without le`);
      entry.buckets.push([le === "+Inf" ? Infinity : Number(le), s.value]);
    } else if (s.name === `${family.name}_sum`) entry.sum = s.value;
    else if (s.name === `${family.name}_count`) entry.count = s.value;
    else throw new Error(`${family.name}: unexpected sample ${s.name}`);
  }
  for (const [key, entry] of bySeries) {
    const last = entry.buckets.at(-1);
    if (last === undefined || last[0] !== Infinity) throw new Error(`${family.name}${key}: no +Inf bucket`);
    for (let i = 1; i < entry.buckets.length; i++) {
      if (entry.buckets[i][0] <= entry.buckets[i - 1][0]) throw new Error(`${family.name}: le not ascending`);
      if (entry.buckets[i][1] < entry.buckets[i - 1][1]) throw new Error(`${family.name}: buckets go down`);
    }
    if (entry.sum === undefined || entry.count === undefined) {
      throw new Error(`${family.name}: no _sum/_count`);
    }
    if (entry.count !== last[1]) throw new Error(`${family.name}: _count is not the +Inf bucket`);
  }
}

/** The sum of a family's samples named `name` whose labels include `match`. */
export function sumOf(
  families: Map<string, PromFamily>,
  name: string,
  match: Record<string, string> = {},
  family = name,
): number {
  const f = families.get(family);
  if (f === undefined) return 0;
  return f.samples
    .filter((s) => s.name === name && Object.entries(match).every(([k, v]) => s.labels[k] === v))
    .reduce((total, s) => total + s.value, 0);
}
