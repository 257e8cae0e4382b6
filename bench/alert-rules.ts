/**
 * The tracked URL alert rules' cost on the observation path (goal: at most 5 % more CPU per observation):
 * 100,000 tracked URLs in a scratch SQLite database, observations recorded through the HistoryRecorder with
 * the rules on (TrackedAlerts listening) and off, process CPU (process.cpuUsage) over many observations, the
 * median of several alternating runs. Runnable alone (`tsx bench/alert-rules.ts`); `measureRules` is what the
 * combined alerts benchmark calls. BENCH_ALERT_URLS / BENCH_ALERT_OBSERVATIONS shrink it for a quick try.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { openAlerts } from "../lib/alerts/open-alerts.ts";
import { createPrisma } from "../lib/db/prisma.ts";
import { migrate } from "../lib/db/migrate.ts";
import type { ObservedValues } from "../lib/history/observed.ts";
import { openStore } from "../lib/store/open.ts";
import { TrackedAlerts } from "../service/alerts/tracked-alerts.ts";
import { HistoryRecorder } from "../service/history/recorder.ts";
import { envInt, log, runMain, tempDir } from "./support.ts";

const TRACKED = envInt("BENCH_ALERT_URLS", 100_000);
const OBSERVATIONS = envInt("BENCH_ALERT_OBSERVATIONS", 100_000);
/** The URLs observed (refreshes come round to a share of the tracked URLs at a time). */
const OBSERVED = Math.min(Math.floor(TRACKED / 2), 5_000);
const RUNS = 7;
const T0 = Date.UTC(2026, 10, 27, 12);
/** The URLs were tracked a day before the run: a process reads them whole once, then only what is added. */
const DAY = 86_400_000;
const STEP = 1_000;
/** Observations a second at this size (100,000 URLs refreshed every half hour or so): the simulated clock's pace (who tracks a URL is read again every 10 minutes of it). */
const PER_SECOND = 50;

const values = (n: number): ObservedValues => ({
  Facebook: { total_count: n, comment_count: 0, reaction_count: n, share_count: 0, comment_plugin_count: 0 },
  Pinterest: n >> 3,
});

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function measureRules(): Promise<{ cpuPerObservationOnUs: number; cpuPerObservationOffUs: number; overheadRatio: number }> {
  const dir = tempDir("bench-alert-rules");
  const url = `file:${path.join(dir, "rules.db")}`;
  await migrate(url);
  const store = openStore(url);
  const prisma = createPrisma(url);
  try {
    log(`tracking ${TRACKED} URLs`);
    await prisma.plan.upsert({ where: { name: "bench" }, create: { name: "bench", dailyQuota: 1e9, bulkBatchLimit: 0, customTtlAllowed: false, trackedUrlLimit: TRACKED }, update: {} });
    const accountId = "bench-rules";
    await prisma.account.create({ data: { id: accountId, email: "rules@example.com", planName: "bench" } });
    const urls = Array.from({ length: TRACKED }, (_, i) => `https://example.com/rules/${i}`);
    for (let at = 0; at < TRACKED; at += STEP) {
      const ids = await store.history.idsOf(urls.slice(at, at + STEP));
      const added = await store.tracked.add(accountId, [...ids.values()], TRACKED, T0 - DAY);
      if (!added.ok) throw new Error("tracked URL limit");
    }
    const kit = openAlerts(prisma, Buffer.alloc(32, 7), "http://localhost");
    const rules = new TrackedAlerts({ tracked: store.tracked, history: store.history, settings: kit.settings, alerts: kit.alerts, timeZone: "UTC" });
    const recorders = { on: new HistoryRecorder(store.history, rules.observed), off: new HistoryRecorder(store.history) };
    let clock = T0;
    const pass = { on: 0, off: 0 };
    // Counts that grow slowly and stay between milestones: alerts are rare, the rules are judged every time.
    // Each mode observes its own tracked URLs with the same values, so the history's own work is the same in both.
    const observe = async (mode: "on" | "off", n: number) => {
      const first = mode === "on" ? 0 : OBSERVED;
      for (let i = 0; i < n; i++) {
        clock += 1_000 / PER_SECOND;
        if (i % OBSERVED === 0) pass[mode] += 1;
        await recorders[mode].observe(urls[first + (i % OBSERVED)]!, clock, values(2_000 + pass[mode] + (i % 97)));
      }
    };
    // Warm: ids cached in both recorders, the rules' recent totals seeded (in batches).
    await observe("on", OBSERVED);
    await observe("off", OBSERVED);
    await rules.settled();
    const cpu: Record<"on" | "off", number[]> = { on: [], off: [] };
    for (let run = 0; run < RUNS; run++) {
      // Alternating which goes first, so neither always follows the other's writes.
      for (const mode of run % 2 === 0 ? (["off", "on"] as const) : (["on", "off"] as const)) {
        const before = process.cpuUsage();
        await observe(mode, OBSERVATIONS);
        if (mode === "on") await rules.settled();
        const used = process.cpuUsage(before);
        cpu[mode].push((used.user + used.system) / OBSERVATIONS);
      }
    }
    const on = median(cpu.on);
    const off = median(cpu.off);
    return { cpuPerObservationOnUs: round(on), cpuPerObservationOffUs: round(off), overheadRatio: round(on / off - 1, 4) };
  } finally {
    await prisma.$disconnect();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const round = (x: number, places = 2) => Math.round(x * 10 ** places) / 10 ** places;

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await runMain(async () => {
    const figures = await measureRules();
    log(`CPU per observation, rules off: ${figures.cpuPerObservationOffUs} µs`);
    log(`CPU per observation, rules on (${TRACKED} tracked URLs): ${figures.cpuPerObservationOnUs} µs`);
    const ok = figures.overheadRatio <= 0.05;
    log(`overhead: ${(figures.overheadRatio * 100).toFixed(1)} % (goal ≤ 5 %) ${ok ? "ok" : "MISSED"}`);
    return ok ? 0 : 1;
  });
}
