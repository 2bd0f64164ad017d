/**
 * The series store behind the metrics registry. Observations cost one map lookup and a few additions:
 * series are created once per label combination and never per observation. The number of series per
 * family is capped, because label values such as model names come from clients: past the cap new
 * combinations share one `_other` series.
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

  /** The series of these label values as a handle: a hot path looks it up once and keeps it. */
  child(values: readonly string[]): CounterChild {
    const series = this.series(values);
    return {
      inc(by = 1) {
        if (by > 0 && by !== Infinity) series.n += by;
      },
    };
  }
}

/** One counter series, found once. */
export interface CounterChild {
  inc(by?: number): void;
}

/** One histogram series, found once. */
export interface HistogramChild {
  observe(value: number): void;
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
    if (!Number.isNaN(value)) record(this.buckets, this.series(values), value);
  }

  /** The series of these label values as a handle (see Counter.child). */
  child(values: readonly string[]): HistogramChild {
    const series = this.series(values);
    const buckets = this.buckets;
    return {
      observe(value) {
        if (!Number.isNaN(value)) record(buckets, series, value);
      },
    };
  }
}

function record(
  buckets: readonly number[],
  series: { counts: Float64Array; sum: number; count: number },
  value: number,
): void {
  for (let i = 0; i < buckets.length; i++) {
    if (value <= buckets[i]) {
      series.counts[i]++;
      break;
    }
  }
  series.sum += value;
  series.count++;
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
