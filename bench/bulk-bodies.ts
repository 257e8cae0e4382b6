/**
 * `npm run bench:bodies`: four maximum-size bulk bodies (BULK_MAX_BODY_BYTES, 24 MiB) posted at once to the
 * service as `npm start` runs it, in each shape an attacker or a careless client sends, while a probe asks
 * GET /v1.0/status one request after another. Prints the probe's slowest answers and how much the server
 * process's RSS grew. Targets: every status answer within 100 ms; RSS growth under 50 MB.
 *
 * BENCH_SHAPES=<regular expression> measures only the shapes it matches; BENCH_NODE_ARGS adds flags to the server's
 * node (`--trace-gc`, `--cpu-prof`).
 *
 * BENCH_SERVICE_ROOT runs the one-process entry point from another checkout (with its own node_modules), to measure a
 * version from before a change with the same load.
 */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { MAX_BODY, SHAPES, type Shape } from "./bulk-body-shapes.ts";
import { createDedicatedAccount, ensureBuild, freePort, log, ROOT, runMain, sleep, startChild, stopChild, tempDir, waitForStatus } from "./support.ts";

const PARALLEL = 4;
const STATUS_TARGET_MS = 100;
const RSS_TARGET_MB = 50;
const SERVICE_ROOT = process.env.BENCH_SERVICE_ROOT ? path.resolve(process.env.BENCH_SERVICE_ROOT) : ROOT;
/** `npm start`'s entry point in that checkout (server.ts at its root before the entry points moved to start/). */
const serverScript = [path.join(SERVICE_ROOT, "start/one-process.ts"), path.join(SERVICE_ROOT, "server.ts")].find((file) => fs.existsSync(file))!;

/** Posts `body` as fast as the connection takes it; resolves with the answer and when it came. */
function post(port: number, pathAndQuery: string, contentType: string, body: Buffer): Promise<{ status: number; type: string; ms: number; sentMiB: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    let sent = 0;
    let answered = false;
    const req = http.request({ host: "127.0.0.1", port, method: "POST", path: pathAndQuery, headers: { "content-type": contentType, "content-length": body.length } }, (res) => {
      answered = true;
      let text = "";
      res.setEncoding("utf8").on("data", (d: string) => (text += d));
      res.on("end", () => {
        const type = (JSON.parse(text || "{}") as { Type?: string }).Type ?? "";
        resolve({ status: res.statusCode!, type, ms: performance.now() - started, sentMiB: sent / 1048576 });
      });
    });
    req.on("error", () => {
      if (!answered) resolve({ status: 0, type: "connection error", ms: performance.now() - started, sentMiB: sent / 1048576 });
    });
    const step = 256 * 1024;
    const pump = () => {
      while (sent < body.length && !answered) {
        const chunk = body.subarray(sent, sent + step);
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      req.end();
    };
    pump();
  });
}

function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

interface ShapeResult {
  shape: string;
  answers: string;
  /** Every body got the answer its shape should get. */
  answeredAsExpected: boolean;
  statusMaxMs: number;
  statusP99Ms: number;
  probes: number;
  rssBeforeMiB: number;
  rssPeakMiB: number;
  rssGrowthMiB: number;
}

async function measure(port: number, pid: number, shape: Shape, key: string): Promise<ShapeResult> {
  const body = shape.body(key);
  // Settle first: what the previous round left behind is not this one's growth.
  (globalThis as { gc?: () => void }).gc?.();
  await sleep(1000);
  const rssBefore = rssMiB(pid);
  let rssPeak = rssBefore;
  let done = false;
  const latencies: number[] = [];
  const probe = (async () => {
    while (!done) {
      const started = performance.now();
      const res = await fetch(`http://127.0.0.1:${port}/v1.0/status`);
      await res.arrayBuffer();
      latencies.push(performance.now() - started);
      rssPeak = Math.max(rssPeak, rssMiB(pid));
      await sleep(10);
    }
  })();
  const answers = await Promise.all(Array.from({ length: PARALLEL }, () => post(port, shape.path(key), shape.contentType, body)));
  done = true;
  await probe;
  rssPeak = Math.max(rssPeak, rssMiB(pid));
  const sorted = latencies.toSorted((a, b) => a - b);
  const result: ShapeResult = {
    shape: shape.name,
    answers: answers.map((a) => `${a.status} ${a.type} after ${(a.ms / 1000).toFixed(1)} s, ${a.sentMiB.toFixed(1)} MiB sent`).join("; "),
    answeredAsExpected: answers.every((a) => a.status === shape.expect.status && a.type === shape.expect.type),
    statusMaxMs: Number(sorted.at(-1)!.toFixed(1)),
    statusP99Ms: Number(sorted[Math.floor(sorted.length * 0.99)]!.toFixed(1)),
    probes: sorted.length,
    rssBeforeMiB: Math.round(rssBefore),
    rssPeakMiB: Math.round(rssPeak),
    rssGrowthMiB: Math.round(rssPeak - rssBefore),
  };
  log(`${shape.name}: ${result.answers}`);
  log(`  status: ${result.probes} answers, p99 ${result.statusP99Ms} ms, max ${result.statusMaxMs} ms; RSS ${result.rssBeforeMiB} → ${result.rssPeakMiB} MiB (+${result.rssGrowthMiB})`);
  return result;
}

async function main(): Promise<number> {
  if (SERVICE_ROOT === ROOT) await ensureBuild();
  const dir = tempDir("bench-bodies");
  const databaseUrl = `file:${path.join(dir, "bench.db")}`;
  const key = await createDedicatedAccount(databaseUrl);
  const port = await freePort();
  log(`starting ${path.relative(SERVICE_ROOT, serverScript)} from ${SERVICE_ROOT} on port ${port}`);
  // node itself (not the tsx command, which runs the script in a second process): its RSS is the server's.
  // BENCH_NODE_ARGS passes flags Node refuses in NODE_OPTIONS (`--trace-gc`, `--cpu-prof`), to see where a stall comes from.
  const nodeArgs = process.env.BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
  const service = startChild("service", process.execPath, [...nodeArgs, "--import", "tsx", serverScript], {
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_URL: databaseUrl,
    SHARECOUNT_NETWORKS: "sandbox",
    SHARECOUNT_DEMO: "false",
    SANDBOX_LATENCY_MS: "0",
    BULK_MAX_BODY_BYTES: String(MAX_BODY),
  });
  await waitForStatus(`http://127.0.0.1:${port}`, service);
  // Warm the dashboard and the API so the baseline includes what every running server has loaded.
  for (const warm of ["/sign-in", "/v1.0/status", `/v1.0/quota?apikey=${key}`]) await (await fetch(`http://127.0.0.1:${port}${warm}`)).arrayBuffer();

  const results: ShapeResult[] = [];
  const only = process.env.BENCH_SHAPES ? new RegExp(process.env.BENCH_SHAPES, "i") : null;
  for (const shape of SHAPES.filter((s) => !only || only.test(s.name))) results.push(await measure(port, service.process.pid!, shape, key));
  await stopChild(service);

  const worstStatus = Math.max(...results.map((r) => r.statusMaxMs));
  const worstGrowth = Math.max(...results.map((r) => r.rssGrowthMiB));
  const statusMet = worstStatus <= STATUS_TARGET_MS;
  const rssMet = worstGrowth < RSS_TARGET_MB;
  console.log("");
  console.log(`${PARALLEL} bodies of ${MAX_BODY / 1048576} MiB at once, per shape; GET /v1.0/status polled meanwhile`);
  console.log(["shape".padEnd(58), "status p99".padStart(10), "status max".padStart(10), "RSS +MiB".padStart(9)].join("  "));
  for (const r of results) {
    console.log([r.shape.padEnd(58), `${r.statusP99Ms} ms`.padStart(10), `${r.statusMaxMs} ms`.padStart(10), String(r.rssGrowthMiB).padStart(9)].join("  "));
  }
  console.log(`slowest status answer ${worstStatus} ms (target ≤ ${STATUS_TARGET_MS}: ${statusMet ? "met" : "MISSED"}); largest RSS growth ${worstGrowth} MiB (target < ${RSS_TARGET_MB}: ${rssMet ? "met" : "MISSED"})`);
  console.log("");
  console.log(JSON.stringify({ bench: "bulk-bodies", parallel: PARALLEL, bodyMiB: MAX_BODY / 1048576, results, statusMet, rssMet }));
  const wrong = results.filter((r) => !r.answeredAsExpected);
  for (const r of wrong) console.error(`[bench] FAILED: ${r.shape} was not answered as expected: ${r.answers}`);
  return wrong.length > 0 ? 1 : 0;
}

await runMain(main);
