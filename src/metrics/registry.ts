/**
 * A small in-process metrics registry rendered in the Prometheus text exposition format (0.0.4). The
 * registry names the families and renders them together; their series live in `series.ts` (one map
 * lookup per observation, a cap per family) and the text is written by `text_format.ts`. This file is
 * the folder's public face: the names below are re-exported so callers import from here only.
 */
import { CollectedGauge, Counter, Histogram, MAX_SERIES_PER_FAMILY } from "./series.ts";
import { constantLabelText, exposition, type FamilyText, familyText } from "./text_format.ts";

export { CollectedGauge, Counter, Histogram, MAX_SERIES_PER_FAMILY, OVERFLOW_LABEL } from "./series.ts";
export type { CounterChild, HistogramChild, MetricType } from "./series.ts";
export { exposition, type FamilyText } from "./text_format.ts";

/** Labels every series carries (worker, instance). */
export type ConstantLabels = readonly (readonly [string, string])[];

/** A set of families rendered together, each series prefixed with the constant labels. */
export class MetricsRegistry {
  readonly #families: (Counter | Histogram | CollectedGauge)[] = [];
  readonly #constant: string;
  readonly #maxSeries: number;

  constructor(constantLabels: ConstantLabels = [], maxSeries = MAX_SERIES_PER_FAMILY) {
    this.#constant = constantLabelText(constantLabels);
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
    return this.#families.map((family) => familyText(family, this.#constant));
  }

  /** The exposition text of every family. */
  render(): string {
    return exposition(this.snapshot());
  }

  #add<F extends Counter | Histogram | CollectedGauge>(family: F): F {
    if (this.#families.some((f) => f.name === family.name)) {
      throw new Error(`metric ${family.name} is registered twice`);
    }
    this.#families.push(family);
    return family;
  }
}
