/**
 * `npm run bench:scale`: the scale-out layout on PostgreSQL + Redis (a scratch database and key prefix,
 * dropped afterwards).
 * - Cached single-URL req/s with one API process (`start/api.ts` with REDIS_URL), then with two (load
 *   split over both), each as a ratio to the bare node:http server replaying the same answer (as bench:api).
 * - Bulk throughput with one and with two worker processes (`start/worker.ts`), a 10,000-URL job
 *   each, against the sandbox at 100 ms upstream latency. This is latency-bound, so two workers should come
 *   close to twice one.
 * Figures, not assertions: these machines are shared and noisy. Each phase also reports how idle the
 * machine's cores were, since everything (load generator, PostgreSQL, Redis, the processes) shares them:
 * a second process cannot add throughput where no core is idle. CPU time is the steadier measure, so each
 * phase reports it per request or per URL for every process that serves it: the API and worker processes,
 * Redis and PostgreSQL (bench/process-cpu.ts). The load generator (autocannon, a child process) and the bulk
 * job's poller are not counted, nor is the sandbox upstream, which the workers reach in a process of its own
 * as they would the real networks. A failed check (non-2xx
 * under load, a URL not answered or counted once) fails the run.
 */
import { randomBytes } from "node:crypto";
import os from "node:os";
import { createDatabase, databaseUrl, dropDatabase } from "../lib/db/postgres-admin.ts";
import { deleteKeysUnder } from "../lib/redis/redis.ts";
import { runBulkJob } from "./bulk-job.ts";
import { cachedAnswer, cpuSeconds, load, startBareReplay, type LoadResult } from "./load.ts";
import { CpuMeter, describeCpu, totalCpu, type CpuReading } from "./process-cpu.ts";
import { createDedicatedAccount, envInt, freePort, log, run, runMain, startChild, stopChild, TSX, waitForStatus, type Child } from "./support.ts";

const SECONDS = envInt("BENCH_SECONDS", 10);
const CONNECTIONS = 64;
const URLS = envInt("BENCH_URLS", 10_000);
const LATENCY_MS = 100;
const CONCURRENCY = envInt("BENCH_CONCURRENCY", 64);
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
const REDIS_URL = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";
/** Where each API and worker process writes a CPU profile (node --cpu-prof) when it stops; unset: none. */
const PROFILE_DIR = process.env.BENCH_CPU_PROFILE_DIR;
const QUERY = `/v1.0/?url=${encodeURIComponent("https://example.com/bench")}`;

async function main(): Promise<number> {
  const name = `sc_bench_${randomBytes(4).toString("hex")}`;
  const url = databaseUrl(POSTGRES_URL, name);
  const prefix = `scbench-${randomBytes(4).toString("hex")}`;
  // The account's API key is stored encrypted under the server secret, shared by every process.
  process.env.SHARECOUNT_SECRET = randomBytes(32).toString("hex");
  const env = {
    HOST: "127.0.0.1",
    DATABASE_URL: url,
    REDIS_URL,
    REDIS_PREFIX: prefix,
    SHARECOUNT_SECRET: process.env.SHARECOUNT_SECRET,
    SHARECOUNT_NETWORKS: "sandbox",
    FACEBOOK_APP_CALLS_PER_HOUR: "1000000",
  };
  log(`scratch database ${name} on ${POSTGRES_URL}, Redis ${REDIS_URL} under ${prefix}:`);
  await createDatabase(POSTGRES_URL, name);
  try {
    return await measureAll(env, url);
  } finally {
    await dropDatabase(POSTGRES_URL, name).catch((error) => log(`could not drop ${name}: ${error}`));
    await deleteKeysUnder(REDIS_URL, prefix).catch((error) => log(`could not clear ${prefix}: ${error}`));
  }
}

/** The machine's CPU time so far (all cores): to tell how idle it was during a phase. */
function cpuTimes(): { idle: number; total: number } {
  let idle = 0;
  let total = 0;
  for (const { times } of os.cpus()) {
    idle += times.idle;
    total += times.user + times.nice + times.sys + times.idle + times.irq;
  }
  return { idle, total };
}

/** Runs `phase` and says how idle the machine's cores were meanwhile (0: every core was busy). */
async function withIdle<T>(phase: () => Promise<T>): Promise<[T, number]> {
  const before = cpuTimes();
  const result = await phase();
  const after = cpuTimes();
  return [result, (after.idle - before.idle) / Math.max(1, after.total - before.total)];
}

async function start(name: string, script: string, env: Record<string, string>, health: string) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // node itself (not the tsx command, which runs the script in a second process): its pid's CPU is the server's.
  const profile = PROFILE_DIR ? [`--cpu-prof`, `--cpu-prof-dir=${PROFILE_DIR}/${name}`] : [];
  const child = startChild(name, process.execPath, [...profile, "--import", "tsx", script], { ...env, PORT: String(port) });
  await waitForStatus(base, child, 180_000, health);
  return { base, child };
}

/**
 * The sandbox upstream in a process of its own, at LATENCY_MS, and the settings that point a worker at it
 * as at live networks (so the worker does not start its own).
 */
async function startUpstream(): Promise<{ child: Child; env: Record<string, string> }> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = startChild("upstream", process.execPath, ["--import", "tsx", "service/sandbox/cli.ts"], {
    SANDBOX_PORT: String(port),
    SANDBOX_HOST: "127.0.0.1",
    SANDBOX_LATENCY_MS: String(LATENCY_MS),
  });
  await waitForStatus(origin, child, 60_000, `/pinterest/v1/urls/count.json?url=${encodeURIComponent("https://example.com/")}`);
  const env = {
    SHARECOUNT_NETWORKS: "live",
    SHARECOUNT_V2_NETWORKS: "none",
    FACEBOOK_ACCESS_TOKEN: "sandbox|sandbox",
    FACEBOOK_GRAPH_URL: `${origin}/facebook/v24.0`,
    PINTEREST_COUNT_URL: `${origin}/pinterest/v1/urls/count.json`,
  };
  return { child, env };
}

async function measure(name: string, urls: string[]): Promise<LoadResult> {
  const connections = CONNECTIONS / urls.length;
  log(`${name}: ${CONNECTIONS} connections over ${urls.length} process(es) for ${SECONDS} s`);
  const results = await Promise.all(urls.map((url) => load(url, connections, SECONDS)));
  const sum = (pick: (r: LoadResult) => number) => results.reduce((total, r) => total + pick(r), 0);
  const result: LoadResult = {
    rps: sum((r) => r.rps),
    p99Ms: Math.max(...results.map((r) => r.p99Ms)),
    avgMs: sum((r) => r.avgMs) / results.length,
    total: sum((r) => r.total),
    ok: sum((r) => r.ok),
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
  };
  log(`${name}: ${Math.round(result.rps)} req/s, p99 ${result.p99Ms} ms, ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result;
}

async function measureAll(env: Record<string, string>, databaseUrl: string): Promise<number> {
  log("migrating (npm run db:migrate)");
  await run(TSX, ["scripts/migrate.ts"], env);
  const apiKey = await createDedicatedAccount(databaseUrl, "bench-cached@example.com");
  const problems: string[] = [];
  const children: Child[] = [];
  const meter = new CpuMeter(REDIS_URL);
  const pid = (child: Child) => child.process.pid!;

  // Cached queries: one API process, then two.
  const apiEnv = { ...env, SANDBOX_LATENCY_MS: "0" };
  const [a, b] = await Promise.all([start("api-a", "start/api.ts", apiEnv, "/v1.0/status"), start("api-b", "start/api.ts", apiEnv, "/v1.0/status")]);
  children.push(a.child, b.child);
  const url = (base: string) => `${base}${QUERY}&apikey=${apiKey}`;
  const answer = await cachedAnswer(url(a.base));
  const [[one, oneCpu], oneIdle] = await withIdle(() => meter.during({ "api-a": pid(a.child) }, () => measure("one API process", [url(a.base)])));
  const [[two, twoCpu], twoIdle] = await withIdle(() =>
    meter.during({ "api-a": pid(a.child), "api-b": pid(b.child) }, () => measure("two API processes", [url(a.base), url(b.base)])),
  );
  await stopChild(b.child);
  const bare = await startBareReplay(answer);
  const bareBefore = cpuSeconds(pid(bare.child));
  const bareResult = await measure("bare node:http", [`${bare.base}${QUERY}&apikey=${apiKey}`]);
  const bareUs = ((cpuSeconds(pid(bare.child)) - bareBefore) / bareResult.total) * 1e6;
  await stopChild(bare.child);
  for (const [name, r] of [["one", one], ["two", two], ["bare", bareResult]] as const) {
    if (r.non2xx + r.errors + r.timeouts > 0) problems.push(`${name}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts under load`);
  }

  // Bulk: one worker, then two, each on a job of its own (its own account, so the quota check is exact).
  const upstream = await startUpstream();
  children.push(upstream.child);
  const workerEnv = { ...env, ...upstream.env, BULK_CONCURRENCY: String(CONCURRENCY) };
  const bulk: { workers: number; wallMs: number; idle: number; cpu: CpuReading }[] = [];
  const running: Child[] = [];
  for (const workers of [1, 2]) {
    while (running.length < workers) {
      running.push((await start(`worker-${running.length + 1}`, "start/worker.ts", workerEnv, "/readyz")).child);
    }
    const key = await createDedicatedAccount(databaseUrl, `bench-bulk-${workers}@example.com`);
    const urls = Array.from({ length: URLS }, (_, i) => `https://example.com/scale-${workers}/${i}`);
    log(`bulk with ${workers} worker(s): ${URLS} URLs, latency ${LATENCY_MS} ms, concurrency ${CONCURRENCY} each`);
    const pids = Object.fromEntries([["api", pid(a.child)], ...running.map((child, i) => [`worker-${i + 1}`, pid(child)])]);
    const [[result, cpu], idle] = await withIdle(() => meter.during(pids, () => runBulkJob(a.base, key, urls, { pollMs: 100, deadlineMs: 600_000 })));
    problems.push(...result.problems.map((p) => `${workers} worker(s): ${p}`));
    bulk.push({ workers, wallMs: result.wallMs, idle, cpu });
  }
  for (const child of [...children, ...running]) await stopChild(child);
  await meter.close();

  // Report.
  const ratio = (r: LoadResult) => r.rps / bareResult.rps;
  const percent = (share: number) => `${(share * 100).toFixed(0)} %`;
  const row = (name: string, r: LoadResult, idle?: number) =>
    [
      name.padEnd(20),
      r.rps.toFixed(0).padStart(10),
      r.p99Ms.toFixed(0).padStart(8),
      (idle === undefined ? "" : ratio(r).toFixed(3)).padStart(10),
      (idle === undefined ? "" : percent(idle)).padStart(9),
    ].join("  ");
  const bulkOne = bulk[0]!;
  const bulkTwo = bulk[1]!;
  const perSecond = (wallMs: number) => URLS / (wallMs / 1000);
  const bound = (workers: number) => (CONCURRENCY * workers * 1000) / LATENCY_MS;
  console.log("");
  console.log(`machine: ${os.cpus().length} cores, shared by the load generator, PostgreSQL, Redis and the processes measured`);
  console.log(`cached GET ${QUERY} on PostgreSQL + Redis (${CONNECTIONS} connections, ${SECONDS} s each)`);
  console.log(["target".padEnd(20), "req/s avg".padStart(10), "p99 ms".padStart(8), "vs bare".padStart(10), "CPU idle".padStart(9)].join("  "));
  console.log(row("one API process", one, oneIdle));
  console.log(row("two API processes", two, twoIdle));
  console.log(row("bare node:http", bareResult));
  console.log(`two/one: ${(two.rps / one.rps).toFixed(3)}`);
  const perRequest = (r: LoadResult) => 1e6 / r.total;
  const apiUs = (cpu: CpuReading, r: LoadResult, names: string[]) => names.reduce((sum, name) => sum + cpu.get(name)!, 0) * perRequest(r);
  const oneApiUs = apiUs(oneCpu, one, ["api-a"]);
  const twoApiUs = apiUs(twoCpu, two, ["api-a", "api-b"]);
  console.log(`CPU µs per cached request: bare node:http ${bareUs.toFixed(1)}`);
  console.log(`  one API process: ${describeCpu(oneCpu, perRequest(one), 1)}; API bare/service ${(bareUs / oneApiUs).toFixed(3)}`);
  console.log(`  two API processes: ${describeCpu(twoCpu, perRequest(two), 1)}; API bare/service ${(bareUs / twoApiUs).toFixed(3)}`);
  console.log("");
  console.log(`bulk: ${URLS} URLs per job, ${LATENCY_MS} ms upstream latency, BULK_CONCURRENCY ${CONCURRENCY} per worker`);
  const msPerUrl = 1000 / URLS;
  for (const { workers, wallMs, idle, cpu } of bulk) {
    console.log(
      `  ${workers} worker(s): ${(wallMs / 1000).toFixed(2)} s, ${perSecond(wallMs).toFixed(0)} URLs/s (bound ${bound(workers).toFixed(0)} URLs/s: ${(perSecond(wallMs) / bound(workers)).toFixed(3)}), CPU idle ${percent(idle)}`,
    );
    console.log(`    CPU ms per URL: ${(totalCpu(cpu) * msPerUrl).toFixed(2)} in all (${describeCpu(cpu, msPerUrl, 2)})`);
  }
  console.log(`  two/one: ${(perSecond(bulkTwo.wallMs) / perSecond(bulkOne.wallMs)).toFixed(3)} (latency-bound: close to 2 expected)`);
  console.log("");
  console.log(
    JSON.stringify({
      bench: "scale",
      cached: {
        connections: CONNECTIONS,
        seconds: SECONDS,
        one_rps: Math.round(one.rps),
        two_rps: Math.round(two.rps),
        bare_rps: Math.round(bareResult.rps),
        one_ratio: Number(ratio(one).toFixed(3)),
        two_ratio: Number(ratio(two).toFixed(3)),
        two_over_one: Number((two.rps / one.rps).toFixed(3)),
        one_p99_ms: one.p99Ms,
        two_p99_ms: two.p99Ms,
        bare_cpu_us_per_request: Number(bareUs.toFixed(1)),
        one_api_cpu_us_per_request: Number(oneApiUs.toFixed(1)),
        one_cpu_efficiency: Number((bareUs / oneApiUs).toFixed(3)),
        one_cpu_us_per_request: Number((totalCpu(oneCpu) * perRequest(one)).toFixed(1)),
        two_cpu_efficiency: Number((bareUs / twoApiUs).toFixed(3)),
        one_cpu_idle: Number(oneIdle.toFixed(3)),
        two_cpu_idle: Number(twoIdle.toFixed(3)),
      },
      bulk: {
        urls: URLS,
        latency_ms: LATENCY_MS,
        concurrency: CONCURRENCY,
        one_worker_s: Number((bulkOne.wallMs / 1000).toFixed(3)),
        two_workers_s: Number((bulkTwo.wallMs / 1000).toFixed(3)),
        two_over_one: Number((perSecond(bulkTwo.wallMs) / perSecond(bulkOne.wallMs)).toFixed(3)),
        cpu_ms_per_url: Number((totalCpu(bulkOne.cpu) * msPerUrl).toFixed(3)),
        two_workers_cpu_ms_per_url: Number((totalCpu(bulkTwo.cpu) * msPerUrl).toFixed(3)),
        cpu_ms_per_url_by_process: Object.fromEntries([...bulkOne.cpu].map(([name, seconds]) => [name, Number((seconds * msPerUrl).toFixed(3))])),
        one_worker_cpu_idle: Number(bulkOne.idle.toFixed(3)),
        two_workers_cpu_idle: Number(bulkTwo.idle.toFixed(3)),
      },
      verified: problems.length === 0,
    }),
  );
  for (const problem of problems) console.error(`[bench] FAILED: ${problem}`);
  return problems.length === 0 ? 0 : 1;
}

await runMain(main);
