/** The refresh budget share, in the running service: the real runtime with the sandbox upstreams, URLs tracked, calls counted. */
import fs from "node:fs";
import path from "node:path";
import { createPrisma } from "../../lib/db/prisma.ts";
import { parseEnv } from "../../lib/env.ts";
import type { SandboxStats } from "../../service/sandbox/control.ts";
import { startRuntime } from "../../service/wiring.ts";
import { log, sleep } from "../support.ts";
import { ACCOUNT_ID, createAccount } from "./data.ts";
import { figure, seconds } from "./figures.ts";

const RUNTIME_URLS = 1_000;

/** Runs the service on a copy of `template` inside `dir` until its refreshes settle and prints the budget.* figures. */
export async function benchBudget(template: string, dir: string): Promise<void> {
  const file = path.join(dir, "runtime.db");
  fs.copyFileSync(template, file);
  const url = `file:${file}`;
  const prisma = createPrisma(url);
  try {
    await createAccount(prisma, "dedicated");
  } finally {
    await prisma.$disconnect();
  }
  const perHour = 200;
  const share = 0.5;
  // REFRESH_POLL_MS has a floor of 100 in lib/env.ts: 50 is refused.
  const env = parseEnv({
    DATABASE_URL: url,
    SHARECOUNT_NETWORKS: "sandbox",
    SANDBOX_LATENCY_MS: "0",
    QUOTA_TIMEZONE: "UTC",
    FACEBOOK_APP_CALLS_PER_HOUR: String(perHour),
    PINTEREST_APP_CALLS_PER_HOUR: String(perHour),
    REFRESH_BUDGET_SHARE: String(share),
    REFRESH_POLL_MS: "100",
  });
  log(`budget share: the runtime with the sandbox, ${RUNTIME_URLS} URLs tracked, ${perHour} calls/hour per network, share ${share}`);
  const runtime = await startRuntime(env, { now: Date.now });
  try {
    const store = runtime.store;
    const urls = Array.from({ length: RUNTIME_URLS }, (_, i) => `https://budget.example/post-${i}`);
    const ids = await store.history.idsOf(urls);
    const added = await store.tracked.add(ACCOUNT_ID, [...ids.values()], 500_000, Date.now());
    if (!added.ok || added.added !== RUNTIME_URLS) throw new Error(`tracking ${RUNTIME_URLS} URLs answered ${JSON.stringify(added)}`);
    runtime.scheduler?.notify();

    const stats = async () => (await (await fetch(`${runtime.sandbox!.origin}/__sandbox/stats`)).json()) as SandboxStats;
    const started = performance.now();
    let last = "";
    let stillSince = performance.now();
    // Settled: no upstream call and no change in the backlog for 2 s (or 30 s passed).
    for (;;) {
      await sleep(200);
      const s = await stats();
      const backlog = await store.tracked.backlog(null, Date.now());
      const state = `${s.facebook.calls}/${s.pinterest.calls}/${backlog.due}`;
      if (state !== last) [last, stillSince] = [state, performance.now()];
      if (performance.now() - stillSince > 2_000 || seconds(started) > 30) break;
    }
    const s = await stats();
    const backlog = await store.tracked.backlog(null, Date.now());
    const allowed = Math.floor(perHour * share);
    const settled = `settled after ${seconds(started).toFixed(1)} s`;
    figure("budget.facebook_calls", s.facebook.calls, "calls", { max: allowed, inclusive: true }, { app_budget_per_hour: perHour, share }, settled);
    figure("budget.pinterest_calls", s.pinterest.calls, "calls", { max: allowed, inclusive: true }, { app_budget_per_hour: perHour, share });
    figure("budget.still_due", backlog.due, "URLs", null, { tracked: RUNTIME_URLS, refreshed: RUNTIME_URLS - backlog.due });
  } finally {
    await runtime.close();
  }
}
