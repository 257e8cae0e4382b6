/**
 * `npm run bench:api`: cached single-URL queries under load, against the service as `npm start` runs it
 * (start/one-process.ts: API + dashboard + worker + sandbox) and against a bare node:http server answering the same
 * bytes, one after the other with the same autocannon settings. Two measures: requests per second (target:
 * service/bare ≥ 0.5), and the server's CPU time (user + system of the listening process) per request, which
 * is much steadier on a shared machine where the load generator competes for the cores (target: an efficiency,
 * bare's CPU per request over the service's, of 0.75 or more). The service runs twice, with the request log off
 * and on (REQUEST_LOG): the log may cost at most 5 % more CPU per cached request.
 */
import path from "node:path";
import Database from "better-sqlite3";
import { cachedAnswer, cpuSeconds, load, startBareReplay, type LoadResult } from "./load.ts";
import { createDedicatedAccount, ensureBuild, envInt, freePort, log, runMain, startChild, stopChild, tempDir, waitForStatus } from "./support.ts";

const SECONDS = envInt("BENCH_SECONDS", 10);
const CONNECTIONS = 64;
const TARGET_RATIO = 0.5;
const TARGET_EFFICIENCY = 0.75;
/** CPU per request with the request log on over off, at most. */
const TARGET_LOG_COST = 1.05;
const QUERY = `/v1.0/?url=${encodeURIComponent("https://example.com/bench")}`;

interface Measured extends LoadResult {
  /** Server CPU (user + system) per request, in microseconds. */
  cpuUs: number;
}

/** Loads `url` and reads the CPU time the server process `pid` spent meanwhile. */
async function measure(name: string, url: string, pid: number): Promise<Measured> {
  log(`${name}: ${CONNECTIONS} connections for ${SECONDS} s → ${url.replace(/apikey=[^&]+/, "apikey=…")}`);
  const cpuBefore = cpuSeconds(pid);
  const result = await load(url, CONNECTIONS, SECONDS);
  const cpuUs = ((cpuSeconds(pid) - cpuBefore) / result.total) * 1e6;
  log(`${name}: ${Math.round(result.rps)} req/s, p99 ${result.p99Ms} ms, ${cpuUs.toFixed(1)} µs CPU per request, ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { ...result, cpuUs };
}

/** The service as `npm start` runs it, with the request log `log`: its load, and (log on) the rows it wrote. */
async function measureService(log: "on" | "off") {
  const dir = tempDir(`bench-api-log-${log}`);
  const databaseUrl = `file:${path.join(dir, "bench.db")}`;
  const apiKey = await createDedicatedAccount(databaseUrl);
  const servicePort = await freePort();
  const serviceBase = `http://127.0.0.1:${servicePort}`;
  console.log(`[bench] starting start/one-process.ts on ${serviceBase} with REQUEST_LOG=${log}`);
  // node itself (not the tsx command, which runs the script in a second process): its CPU time is the server's.
  const service = startChild(`service-log-${log}`, process.execPath, ["--import", "tsx", "start/one-process.ts"], {
    PORT: String(servicePort),
    HOST: "127.0.0.1",
    DATABASE_URL: databaseUrl,
    SHARECOUNT_NETWORKS: "sandbox",
    SHARECOUNT_DEMO: "false",
    SANDBOX_LATENCY_MS: "0",
    REQUEST_LOG: log,
  });
  await waitForStatus(serviceBase, service);
  // The API answers while the dashboard still loads (start/serve-api.ts); measured then, the load would pay for Next.js's start.
  await waitForStatus(serviceBase, service, 180_000, "/sign-in");
  const serviceUrl = `${serviceBase}${QUERY}&apikey=${apiKey}`;
  const answer = await cachedAnswer(serviceUrl);
  const result = await measure(`service, log ${log}`, serviceUrl, service.process.pid!);
  // Stopping writes what waits: every request answered is then in the table (or counted as dropped).
  await stopChild(service);
  const db = new Database(path.join(dir, "bench.db"), { readonly: true });
  const logged = (db.prepare("SELECT count(*) AS n FROM request_log").get() as { n: number }).n;
  db.close();
  return { result, answer, apiKey, logged };
}

async function main(): Promise<number> {
  await ensureBuild();

  // (a) the service, as `npm start` runs it: the request log off, then on (each on a database of its own)
  const off = await measureService("off");
  const on = await measureService("on");
  const serviceResult = on.result;
  const answer = on.answer;
  const apiKey = on.apiKey;

  // (b) bare node:http with the same bytes
  const bare = await startBareReplay(answer);
  const bareResult = await measure("bare", `${bare.base}${QUERY}&apikey=${apiKey}`, bare.child.process.pid!);
  await stopChild(bare.child);

  // report
  const ratio = serviceResult.rps / bareResult.rps;
  const efficiency = bareResult.cpuUs / serviceResult.cpuUs;
  const met = ratio >= TARGET_RATIO;
  const efficient = efficiency >= TARGET_EFFICIENCY;
  const row = (name: string, r: Measured) =>
    [name.padEnd(8), r.rps.toFixed(0).padStart(10), r.p99Ms.toFixed(0).padStart(8), r.cpuUs.toFixed(1).padStart(11),
      String(r.total).padStart(10), String(r.non2xx).padStart(8), String(r.errors + r.timeouts).padStart(7)].join("  ");
  console.log("");
  console.log(`cached GET ${QUERY}  (${CONNECTIONS} connections, ${SECONDS} s each)`);
  console.log(["target".padEnd(8), "req/s avg".padStart(10), "p99 ms".padStart(8), "CPU µs/req".padStart(11),
    "requests".padStart(10), "non-2xx".padStart(8), "errors".padStart(7)].join("  "));
  console.log(row("log off", off.result));
  console.log(row("service", serviceResult));
  console.log(row("bare", bareResult));
  console.log(`ratio service/bare: ${ratio.toFixed(3)} req/s (target ≥ ${TARGET_RATIO}: ${met ? "met" : "MISSED"})`);
  console.log(`efficiency bare/service CPU per request: ${efficiency.toFixed(3)} (target ≥ ${TARGET_EFFICIENCY}: ${efficient ? "met" : "MISSED"})`);
  const logCost = serviceResult.cpuUs / off.result.cpuUs;
  const logCheap = logCost <= TARGET_LOG_COST;
  console.log(
    `request log: CPU per request on ${serviceResult.cpuUs.toFixed(1)} µs, off ${off.result.cpuUs.toFixed(1)} µs, on/off ${logCost.toFixed(3)} ` +
      `(target ≤ ${TARGET_LOG_COST}: ${logCheap ? "met" : "MISSED"}); ${on.logged} rows logged of ${serviceResult.total} requests`,
  );
  console.log("");

  const summarize = (r: Measured) => ({
    rps: Math.round(r.rps),
    cpu_us_per_request: Number(r.cpuUs.toFixed(1)),
    p99_ms: r.p99Ms,
    requests: r.total,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
  });
  console.log(
    JSON.stringify({
      bench: "api",
      connections: CONNECTIONS,
      seconds: SECONDS,
      service: summarize(serviceResult),
      log_off: summarize(off.result),
      log_cost: Number(logCost.toFixed(3)),
      log_cost_target: TARGET_LOG_COST,
      log_cost_met: logCheap,
      rows_logged: on.logged,
      bare: summarize(bareResult),
      ratio: Number(ratio.toFixed(3)),
      target: TARGET_RATIO,
      met,
      efficiency: Number(efficiency.toFixed(3)),
      efficiency_target: TARGET_EFFICIENCY,
      efficiency_met: efficient,
    }),
  );

  const failed = (r: LoadResult) => r.non2xx + r.errors + r.timeouts > 0;
  if (failed(serviceResult)) console.error("[bench] FAILED: the service answered non-2xx or errors under load");
  if (failed(bareResult)) console.error("[bench] FAILED: the bare server answered non-2xx or errors (the ratio is meaningless)");
  return failed(serviceResult) || failed(bareResult) ? 1 : 0;
}

await runMain(main);
