import { bulkBodyEvents } from "./service/bulk/body.ts";
import { BulkSubmission } from "./service/bulk/submission.ts";
const MAX = 24 * 1024 * 1024;
const kind = process.argv[2]!;
let parts: string[] = [], size = 0;
for (let i = 0; size < MAX; i++) { const l = kind === "form" ? `https%3A%2F%2Fexample.com%2Fbench%2Fpage-${i}%0A` : `https://example.com/bench/page-${i}\n`; parts.push(l); size += l.length; }
const body = Buffer.from(((kind === "form" ? "urls=" : "") + parts.join("")).slice(0, MAX));
parts = [];
async function* chunks() { for (let at = 0; at < body.length; at += 65536) { yield body.subarray(at, at + 65536); await new Promise((r) => setImmediate(r)); } }
const gc = (globalThis as any).gc as () => void;
gc(); const before = process.memoryUsage();
let peakHeap = 0, peakRss = 0;
const t0 = performance.now(); let maxStep = 0;
const sub = new BulkSubmission(null, 10_000);
let last = performance.now();
for await (const batch of bulkBodyEvents(chunks(), kind === "form" ? "application/x-www-form-urlencoded" : "text/plain", MAX)) {
  const s = performance.now();
  for (const e of batch) if (e.kind === "line") sub.add(e.value);
  maxStep = Math.max(maxStep, performance.now() - s);
  const m = process.memoryUsage(); peakHeap = Math.max(peakHeap, m.heapUsed); peakRss = Math.max(peakRss, m.rss);
}
const total = performance.now() - t0;
gc(); const after = process.memoryUsage();
const mb = (n: number) => (n / 1048576).toFixed(1);
console.log(kind, "total ms", total.toFixed(0), "max batch ms", maxStep.toFixed(1), "heap before", mb(before.heapUsed), "peak", mb(peakHeap), "after gc", mb(after.heapUsed), "rss before", mb(before.rss), "peak", mb(peakRss), "urls kept", sub.urls.length);
