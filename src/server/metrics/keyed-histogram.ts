import type { Metric, Registry } from "prom-client";

type Labels = Record<string, string>;

interface Series {
  labels: Labels;
  /** Per bucket, not cumulative; the last one is above every bound (+Inf only). */
  counts: number[];
  sum: number;
  count: number;
}

export interface KeyedHistogramOptions {
  name: string;
  help: string;
  buckets: readonly number[];
  registers: Registry[];
}

/**
 * A Prometheus histogram for the per-request path. prom-client's own `observe` (a label-bound
 * child's too) validates, copies and hashes the labels on every call, far dearer than a map
 * lookup and a bucket count, and each page observes two histograms
 * (docs/decisions/0014-histograms-observed-by-key.md). Here
 * the caller names the series by a key it builds from the label values; the labels object is
 * made once per series. Exposition stays prom-client's: the registry reads `get()` as it
 * reads its own metrics'.
 */
export class KeyedHistogram {
  readonly type = "histogram";
  readonly aggregator = "sum";
  readonly name: string;
  readonly help: string;
  readonly #bounds: readonly number[];
  readonly #series = new Map<string, Series>();

  constructor({ name, help, buckets, registers }: KeyedHistogramOptions) {
    this.name = name;
    this.help = help;
    this.#bounds = [...buckets].sort((a, b) => a - b);
    // Duck-typed: the registry only calls get() and reset() and reads name, help and type.
    for (const registry of registers) registry.registerMetric(this as unknown as Metric);
  }

  /** `labels` is called only for a key seen the first time. */
  observe(key: string, labels: () => Labels, seconds: number): void {
    let series = this.#series.get(key);
    if (!series) {
      series = { labels: labels(), counts: new Array(this.#bounds.length + 1).fill(0), sum: 0, count: 0 };
      this.#series.set(key, series);
    }
    const bounds = this.#bounds;
    let bucket = 0;
    while (bucket < bounds.length && seconds > (bounds[bucket] as number)) bucket++;
    series.counts[bucket] = (series.counts[bucket] as number) + 1;
    series.sum += seconds;
    series.count += 1;
  }

  /** The same values, in the same order, as prom-client's Histogram gives its registry. */
  get() {
    const bucketName = `${this.name}_bucket`;
    const values: { metricName: string; labels: Record<string, string | number>; value: number }[] = [];
    for (const { labels, counts, sum, count } of this.#series.values()) {
      let cumulative = 0;
      this.#bounds.forEach((le, i) => {
        cumulative += counts[i] as number;
        values.push({ metricName: bucketName, labels: { le, ...labels }, value: cumulative });
      });
      values.push({ metricName: bucketName, labels: { le: "+Inf", ...labels }, value: count });
      values.push({ metricName: `${this.name}_sum`, labels, value: sum });
      values.push({ metricName: `${this.name}_count`, labels, value: count });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    this.#series.clear();
  }
}
