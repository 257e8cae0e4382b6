import { Counter, type Metric, type MetricValue, type Registry } from "prom-client";

/*
 * Metrics counted on the request path at the cost of a map lookup and an addition. prom-client hashes a
 * label set on every `inc` and `observe` (about 0.5 µs a request for a counter and a histogram); these keep
 * plain numbers per label set and hand them to the registry only when /metrics is read.
 */

/** A counter whose label sets are named by a key the caller builds (`route method status`). */
export class BatchedCounter<Label extends string> {
  private readonly pending = new Map<string, { labels: Record<Label, string>; n: number }>();

  constructor(config: { name: string; help: string; labelNames: readonly Label[] }, registry: Registry) {
    const pending = this.pending;
    new Counter<Label>({
      ...config,
      registers: [registry],
      collect() {
        for (const entry of pending.values()) {
          if (entry.n === 0) continue;
          this.inc(entry.labels, entry.n);
          entry.n = 0;
        }
      },
    });
  }

  /** Adds `n` to the label set named `key`; `labels` is called only the first time the key is seen. */
  inc(key: string, labels: () => Record<Label, string>, n = 1): void {
    let entry = this.pending.get(key);
    if (entry === undefined) {
      entry = { labels: labels(), n: 0 };
      this.pending.set(key, entry);
    }
    entry.n += n;
  }
}

interface Series {
  /** Observations per bucket (not cumulative); the last one is +Inf. */
  counts: number[];
  sum: number;
}

/** A histogram with one label, exported in prom-client's own form, so the registry writes it as any other. */
export class BatchedHistogram {
  readonly type = "histogram";
  readonly aggregator = "sum";
  private readonly series = new Map<string, Series>();
  readonly labelNames: readonly string[];

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly label: string,
    private readonly buckets: readonly number[],
    registry: Registry,
  ) {
    this.labelNames = [label];
    registry.registerMetric(this as unknown as Metric);
  }

  observe(labelValue: string, value: number): void {
    let series = this.series.get(labelValue);
    if (series === undefined) {
      series = { counts: new Array<number>(this.buckets.length + 1).fill(0), sum: 0 };
      this.series.set(labelValue, series);
    }
    let i = 0;
    while (i < this.buckets.length && value > this.buckets[i]!) i++;
    series.counts[i]! += 1;
    series.sum += value;
  }

  /** What the registry reads when /metrics is asked for (the shape prom-client's own histogram returns). */
  async get(): Promise<{ name: string; help: string; type: string; values: MetricValue<string>[]; aggregator: string }> {
    const values: MetricValue<string>[] = [];
    for (const [labelValue, series] of this.series) {
      let cumulative = 0;
      series.counts.forEach((count, i) => {
        cumulative += count;
        const le = i < this.buckets.length ? this.buckets[i]! : "+Inf";
        values.push({ metricName: `${this.name}_bucket`, labels: { le, [this.label]: labelValue }, value: cumulative } as MetricValue<string>);
      });
      values.push({ metricName: `${this.name}_sum`, labels: { [this.label]: labelValue }, value: series.sum } as MetricValue<string>);
      values.push({ metricName: `${this.name}_count`, labels: { [this.label]: labelValue }, value: cumulative } as MetricValue<string>);
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    this.series.clear();
  }
}
