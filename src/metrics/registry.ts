/**
 * A small in-process metrics registry rendered in the Prometheus text exposition format (0.0.4).
 * Observations cost one map lookup and a few additions: series are created once per label combination
 * and never per observation. The number of series per family is capped, because label values such as
 * model names come from clients: past the cap new combinations share one `_other` series.
 */

/** Series per family before new label combinations are folded into the `_other` series. */
export const MAX_SERIES_PER_FAMILY = 2000;

/** The label value every label of the overflow series carries. */
export const OVERFLOW_LABEL = "_other";

/** What a family is, in the `# TYPE` line. */
export type MetricType = "counter" | "gauge" | "histogram";

/** One metric family: a name, help, label names and its series. */
abstract class Family<S> {
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];
  readonly #series = new Map<string, { readonly labels: readonly string[]; readonly value: S }>();
  readonly #maxSeries: number;

  constructor(name: string, help: string, labelNames: readonly string[], maxSeries: number) {
    this.name = name;
    this.help = help;
    this.labelNames = labelNames;
    this.#maxSeries = maxSeries;
  }

  abstract readonly type: MetricType;
  protected abstract create(): S;

  /** The series of these label values (created on first use; folded into `_other` past the cap). */
  protected series(values: readonly string[]): S {
    const key = values.length === 1 ? values[0] : values.join("\u0001");
    const found = this.#series.get(key);
    if (found !== undefined) return found.value;
    if (this.#series.size >= this.#maxSeries) {
      const other = this.labelNames.map(() => OVERFLOW_LABEL);
      const otherKey = other.join("\u0001");
      const overflow = this.#series.get(otherKey);
      if (overflow !== undefined) return overflow.value;
      const value = this.create();
      this.#series.set(otherKey, { labels: other, value });
      return value;
    }
    const value = this.create();
    this.#series.set(key, { labels: [...values], value });
    return value;
  }

  /** Every series with its label values, in creation order. */
  entries(): Iterable<{ readonly labels: readonly string[]; readonly value: S }> {
    return this.#series.values();
  }
}

/** A monotonically increasing count. */
export class Counter extends Family<{ n: number }> {
  readonly type = "counter" as const;
  protected create(): { n: number } {
    return { n: 0 };
  }

  /** Adds `by` (default 1; negative or non-finite amounts are ignored: counters never go down). */
  inc(values: readonly string[], by = 1): void {
    if (!(by > 0) || by === Infinity) return;
    this.series(values).n += by;
  }
}

/** Counts of observations in cumulative buckets, with their sum. */
export class Histogram extends Family<{ counts: Float64Array; sum: number; count: number }> {
  readonly type = "histogram" as const;
  readonly buckets: readonly number[];

  constructor(
    name: string,
    help: string,
    labelNames: readonly string[],
    buckets: readonly number[],
    maxSeries: number,
  ) {
    super(name, help, labelNames, maxSeries);
    this.buckets = buckets;
  }

  protected create(): { counts: Float64Array; sum: number; count: number } {
    return { counts: new Float64Array(this.buckets.length), sum: 0, count: 0 };
  }

  /** Records one observation (NaN is ignored). */
  observe(values: readonly string[], value: number): void {
    if (Number.isNaN(value)) return;
    const series = this.series(values);
    const buckets = this.buckets;
    for (let i = 0; i < buckets.length; i++) {
      if (value <= buckets[i]) {
        series.counts[i]++;
        break;
      }
    }
    series.sum += value;
    series.count++;
  }
}

/** A value read when scraped: the callback lists `[label values, value]` pairs. */
export class CollectedGauge {
  readonly type = "gauge" as const;
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];
  readonly collect: () => Iterable<readonly [readonly string[], number]>;

  constructor(
    name: string,
    help: string,
    labelNames: readonly string[],
    collect: () => Iterable<readonly [readonly string[], number]>,
  ) {
    this.name = name;
    this.help = help;
    this.labelNames = labelNames;
    this.collect = collect;
  }
}

/** Labels every series carries (worker, instance). */
export type ConstantLabels = readonly (readonly [string, string])[];

/** A set of families rendered together, each series prefixed with the constant labels. */
export class MetricsRegistry {
  readonly #families: (Counter | Histogram | CollectedGauge)[] = [];
  readonly #constant: string;
  readonly #maxSeries: number;

  constructor(constantLabels: ConstantLabels = [], maxSeries = MAX_SERIES_PER_FAMILY) {
    this.#constant = constantLabels.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(",");
    this.#maxSeries = maxSeries;
  }

  /** Adds a counter; its name ends in `_total` by the Prometheus convention. */
  counter(name: string, help: string, labelNames: readonly string[] = []): Counter {
    return this.#add(new Counter(name, help, labelNames, this.#maxSeries));
  }

  /** Adds a histogram with these upper bounds (ascending; `+Inf` is implied). */
  histogram(
    name: string,
    help: string,
    labelNames: readonly string[],
    buckets: readonly number[],
  ): Histogram {
    return this.#add(new Histogram(name, help, labelNames, buckets, this.#maxSeries));
  }

  /** Adds a gauge computed at scrape time. */
  gauge(
    name: string,
    help: string,
    labelNames: readonly string[],
    collect: () => Iterable<readonly [readonly string[], number]>,
  ): CollectedGauge {
    return this.#add(new CollectedGauge(name, help, labelNames, collect));
  }

  /** Every family with its sample lines rendered (constant labels included). */
  snapshot(): FamilyText[] {
    return this.#families.map((family) => {
      const lines: string[] = [];
      if (family instanceof Counter) {
        for (const { labels, value } of family.entries()) {
          lines.push(`${family.name}${this.#labels(family.labelNames, labels)} ${num(value.n)}`);
        }
      } else if (family instanceof Histogram) {
        this.#renderHistogram(family, lines);
      } else {
        for (const [labels, value] of family.collect()) {
          lines.push(`${family.name}${this.#labels(family.labelNames, labels)} ${num(value)}`);
        }
      }
      return { name: family.name, help: family.help, type: family.type, lines };
    });
  }

  /** The exposition text of every family. */
  render(): string {
    return exposition(this.snapshot());
  }

  #renderHistogram(family: Histogram, lines: string[]): void {
    for (const { labels, value } of family.entries()) {
      let cumulative = 0;
      family.buckets.forEach((bound, i) => {
        cumulative += value.counts[i];
        const le = this.#labels(family.labelNames, labels, num(bound));
        lines.push(`${family.name}_bucket${le} ${num(cumulative)}`);
      });
      lines.push(
        `${family.name}_bucket${this.#labels(family.labelNames, labels, "+Inf")} ${num(value.count)}`,
      );
      const plain = this.#labels(family.labelNames, labels);
      lines.push(
        `${family.name}_sum${plain} ${num(value.sum)}`,
        `${family.name}_count${plain} ${num(value.count)}`,
      );
    }
  }

  #labels(names: readonly string[], values: readonly string[], le?: string): string {
    const parts: string[] = this.#constant === "" ? [] : [this.#constant];
    names.forEach((name, i) => parts.push(`${name}="${escapeLabel(values[i] ?? "")}"`));
    if (le !== undefined) parts.push(`le="${le}"`);
    return parts.length === 0 ? "" : `{${parts.join(",")}}`;
  }

  #add<F extends Counter | Histogram | CollectedGauge>(family: F): F {
    if (this.#families.some((f) => f.name === family.name)) {
      throw new Error(`metric ${family.name} is registered twice`);
    }
    this.#families.push(family);
    return family;
  }
}

/** One family as text: what a process shares with the other workers of its instance. */
export interface FamilyText {
  readonly name: string;
  readonly help: string;
  readonly type: MetricType;
  readonly lines: readonly string[];
}

/**
 * The exposition text of `families`, with the sample lines of the same families from `others` (other
 * processes' snapshots, whose series differ by their `worker` label) inside each family's block: the
 * format wants every family's samples together, under one HELP and TYPE.
 */
export function exposition(
  families: readonly FamilyText[],
  others: readonly (readonly FamilyText[])[] = [],
): string {
  const out: string[] = [];
  for (const family of families) {
    out.push(`# HELP ${family.name} ${escapeHelp(family.help)}`, `# TYPE ${family.name} ${family.type}`);
    out.push(...family.lines);
    for (const other of others) {
      const same = other.find((f) => f.name === family.name && f.type === family.type);
      if (same !== undefined) out.push(...same.lines);
    }
  }
  return out.join("\n") + "\n";
}

/** A sample value as the text format writes it. */
function num(value: number): string {
  if (value === Infinity) return "+Inf";
  if (value === -Infinity) return "-Inf";
  if (Number.isNaN(value)) return "NaN";
  return String(value);
}

function escapeLabel(value: string): string {
  return value.replace(/[\\"\n]/g, (c) => (c === "\n" ? "\\n" : `\\${c}`));
}

function escapeHelp(value: string): string {
  return value.replace(/[\\\n]/g, (c) => (c === "\n" ? "\\n" : "\\\\"));
}
