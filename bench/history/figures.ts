/** The bench's figures: each printed as a line with its target when measured, and all of them in the closing JSON. */

const WARMUP = 10;

interface Figure {
  name: string;
  value: number;
  unit: string;
  /** The figure must stay below (or at most) this; null: reported, not judged. */
  target: { max: number; inclusive: boolean } | null;
  pass: boolean | null;
  detail?: Record<string, number | string>;
}

const figures: Figure[] = [];

export function figure(name: string, value: number, unit: string, target: Figure["target"], detail?: Figure["detail"], note = ""): Figure {
  const pass = target === null ? null : target.inclusive ? value <= target.max : value < target.max;
  const rounded = detail && Object.fromEntries(Object.entries(detail).map(([k, v]) => [k, typeof v === "number" ? round(v) : v]));
  const entry: Figure = { name, value: round(value), unit, target, pass, detail: rounded };
  figures.push(entry);
  const extra = rounded ? ` (${Object.entries(rounded).map(([k, v]) => `${k} ${v}`).join(", ")})` : "";
  const judged = target === null ? "" : `  target ${target.inclusive ? "≤" : "<"} ${target.max} ${unit}  ${pass ? "PASS" : "MISS"}`;
  console.log(`[figure] ${name}: ${round(value)} ${unit}${extra}${judged}${note ? `  — ${note}` : ""}`);
  return entry;
}

export const round = (x: number) => (Math.abs(x) >= 100 ? Math.round(x) : Number(x.toPrecision(3)));

export const seconds = (startedAt: number) => (performance.now() - startedAt) / 1000;

interface Latency {
  p50: number;
  p99: number;
  max: number;
  samples: number;
}

/** Times `once` sequentially (`warmup` untimed calls first: statements get prepared and planned). */
export async function latency(samples: number, once: (i: number) => Promise<unknown>): Promise<Latency> {
  for (let i = 0; i < WARMUP; i++) await once(i);
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const start = performance.now();
    await once(i);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  // Nearest rank: the p99 of 200 samples is the second slowest.
  const rank = (p: number) => times[Math.min(times.length - 1, Math.ceil(p * times.length) - 1)]!;
  return { p50: rank(0.5), p99: rank(0.99), max: times.at(-1)!, samples };
}

export function latencyFigure(name: string, l: Latency, targetMs: number): Figure {
  return figure(name, l.p99, "ms", { max: targetMs, inclusive: false }, { p50_ms: l.p50, max_ms: l.max, samples: l.samples });
}

/** Prints the run (`run`'s fields first) and every figure as one JSON line, then each missed target; true when none missed. */
export function printSummary(run: Record<string, number | string>): boolean {
  const missed = figures.filter((f) => f.pass === false);
  console.log("");
  console.log(
    JSON.stringify({
      ...run,
      figures: Object.fromEntries(figures.map(({ name, ...rest }) => [name, rest])),
      missed: missed.map((f) => f.name),
      passed: missed.length === 0,
    }),
  );
  for (const f of missed) console.error(`[bench] MISSED: ${f.name} ${f.value} ${f.unit} (target ${f.target!.inclusive ? "≤" : "<"} ${f.target!.max})`);
  return missed.length === 0;
}
