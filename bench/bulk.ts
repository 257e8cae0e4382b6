/**
 * `npm run bench:bulk`: one 10,000-URL bulk job against the sandbox with 100 ms upstream latency, through
 * start/api.ts (API + worker). The worker can do at best URLs × latency / concurrency; target: that limit
 * over the measured wall time ≥ 0.8.
 */
import path from "node:path";
import { runBulkJob } from "./bulk-job.ts";
import { createDedicatedAccount, envInt, freePort, log, runMain, startChild, stopChild, tempDir, TSX, waitForStatus } from "./support.ts";

const URLS = 10_000;
const LATENCY_MS = 100;
const CONCURRENCY = envInt("BENCH_CONCURRENCY", 64);
const POLL_MS = 100;
const TARGET_RATIO = 0.8;

async function main(): Promise<number> {
  const dir = tempDir("bench-bulk");
  const databaseUrl = `file:${path.join(dir, "bulk.db")}`;
  const apiKey = await createDedicatedAccount(databaseUrl);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  log(`starting start/api.ts on ${base} (sandbox latency ${LATENCY_MS} ms, BULK_CONCURRENCY ${CONCURRENCY})`);
  const service = startChild("service", TSX, ["start/api.ts"], {
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_URL: databaseUrl,
    SHARECOUNT_NETWORKS: "sandbox",
    SANDBOX_LATENCY_MS: String(LATENCY_MS),
    BULK_CONCURRENCY: String(CONCURRENCY),
    FACEBOOK_APP_CALLS_PER_HOUR: "100000",
  });
  await waitForStatus(base, service);

  const urls = Array.from({ length: URLS }, (_, i) => `https://example.com/bulk/${i}`);
  const limitMs = (URLS * LATENCY_MS) / CONCURRENCY;
  log(`submitting ${URLS} URLs (concurrency-bound limit ${(limitMs / 1000).toFixed(2)} s)`);
  const { wallMs, dataKeys: keys, quotaUsed, problems } = await runBulkJob(base, apiKey, urls, {
    pollMs: POLL_MS,
    deadlineMs: Math.max(120_000, limitMs * 10),
  });
  await stopChild(service);

  const ratio = limitMs / wallMs;
  const met = ratio >= TARGET_RATIO;
  console.log("");
  console.log(`bulk job: ${URLS} URLs`);
  console.log(`  upstream latency       ${LATENCY_MS} ms`);
  console.log(`  worker concurrency     ${CONCURRENCY}`);
  console.log(`  wall time (POST→done)  ${(wallMs / 1000).toFixed(2)} s   (polled every ${POLL_MS} ms)`);
  console.log(`  limit URLs×lat/conc    ${(limitMs / 1000).toFixed(2)} s`);
  console.log(`  ratio limit/wall       ${ratio.toFixed(3)} (target ≥ ${TARGET_RATIO}: ${met ? "met" : "MISSED"})`);
  console.log(`  data keys              ${keys}`);
  console.log(`  quota_used_today       ${quotaUsed}`);
  console.log("");
  console.log(
    JSON.stringify({
      bench: "bulk",
      urls: URLS,
      latency_ms: LATENCY_MS,
      concurrency: CONCURRENCY,
      wall_s: Number((wallMs / 1000).toFixed(3)),
      limit_s: Number((limitMs / 1000).toFixed(3)),
      ratio: Number(ratio.toFixed(3)),
      target: TARGET_RATIO,
      met,
      data_keys: keys,
      quota_used_today: quotaUsed,
      verified: problems.length === 0,
    }),
  );
  for (const problem of problems) console.error(`[bench] FAILED: ${problem}`);
  return problems.length === 0 ? 0 : 1;
}

await runMain(main);
