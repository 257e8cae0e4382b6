/**
 * Measuring a server under load: autocannon, the bare node:http server replaying the service's answer as the
 * baseline, and the CPU time a process has used.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import { promisify } from "node:util";
import { freePort, log, startChild, waitForStatus, type Child } from "./support.ts";

const execFileAsync = promisify(execFile);

// ---- autocannon, in a process of its own ----

/**
 * Runs autocannon in a child node process and prints its result as JSON: the load generator then never shares an
 * event loop with this process's bookkeeping, and its CPU is its own (closed loop: each connection sends its next
 * request when the answer to the last one arrived, as wrk does).
 */
const LOADER = `
const autocannon = require(process.env.BENCH_AUTOCANNON);
autocannon({ url: process.env.BENCH_URL, connections: Number(process.env.BENCH_CONNECTIONS), duration: Number(process.env.BENCH_SECONDS) })
  .then((r) => process.stdout.write(JSON.stringify(r)), (error) => { console.error(error); process.exit(1); });
`;
const AUTOCANNON = createRequire(import.meta.url).resolve("autocannon");

/** autocannon's result, the few fields read here. */
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { average: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  "2xx": number;
}

export interface LoadResult {
  rps: number;
  p99Ms: number;
  avgMs: number;
  total: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

/** `connections` closed-loop connections to `url` for `seconds`, from a child process running autocannon. */
export async function load(url: string, connections: number, seconds: number): Promise<LoadResult> {
  const { stdout } = await execFileAsync(process.execPath, ["-e", LOADER], {
    env: { ...process.env, BENCH_AUTOCANNON: AUTOCANNON, BENCH_URL: url, BENCH_CONNECTIONS: String(connections), BENCH_SECONDS: String(seconds) },
    maxBuffer: 16 * 1024 * 1024,
  });
  const r = JSON.parse(stdout) as AutocannonResult;
  return {
    rps: r.requests.average,
    p99Ms: r.latency.p99,
    avgMs: r.latency.average,
    total: r.requests.total,
    ok: r["2xx"],
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
  };
}

// ---- the bare node:http baseline ----

/**
 * The baseline: answers every request with the service's cached answer, byte for byte (same headers,
 * same body), so a ratio to it measures the service's own work, not the size of its headers.
 */
const BARE_SERVER = `
const http = require("node:http");
const body = Buffer.from(process.env.BENCH_BODY_BASE64, "base64");
const headers = { ...JSON.parse(process.env.BENCH_HEADERS), "content-length": body.length };
const server = http.createServer((req, res) => { res.writeHead(200, headers); res.end(body); });
server.keepAliveTimeout = 65000;
server.listen(Number(process.env.PORT), "127.0.0.1", () => console.log("listening on " + process.env.PORT));
process.on("SIGTERM", () => process.exit(0));
`;

export interface CachedAnswer {
  body: Buffer;
  /** Everything the service sent but what Node adds itself per connection and response. */
  headers: Record<string, string>;
}

/** Warms the cache with one request; the second is the cached answer a load run gets, to be replayed. */
export async function cachedAnswer(url: string): Promise<CachedAnswer> {
  const warm = await fetch(url);
  const warmText = await warm.text();
  if (warm.status !== 200) throw new Error(`warm-up answered ${warm.status}: ${warmText}`);
  const cached = await fetch(url);
  const body = Buffer.from(await cached.arrayBuffer());
  if (cached.status !== 200) throw new Error(`cached request answered ${cached.status}: ${body.toString("utf8")}`);
  log(`warmed (X-Sharecount-Cache ${warm.headers.get("x-sharecount-cache")} then ${cached.headers.get("x-sharecount-cache")}); body ${body.length} bytes`);
  const headers = Object.fromEntries(
    [...cached.headers].filter(([name]) => !["date", "connection", "keep-alive", "content-length", "transfer-encoding"].includes(name)),
  );
  return { body, headers };
}

/** Starts the bare node:http server replaying `answer`; resolves with its base URL once it answers. */
export async function startBareReplay(answer: CachedAnswer): Promise<{ base: string; child: Child }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  log(`starting bare node:http on ${base}`);
  const child = startChild("bare", process.execPath, ["-e", BARE_SERVER], {
    PORT: String(port),
    BENCH_BODY_BASE64: answer.body.toString("base64"),
    BENCH_HEADERS: JSON.stringify(answer.headers),
  });
  await waitForStatus(base, child);
  return { base, child };
}

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux, whatever the kernel's HZ). */
const USER_HZ = 100;

/**
 * CPU seconds (user + system) the process has used so far, from /proc/PID/stat: on a shared machine the work a
 * server does per request is much steadier than how many requests it gets through, which the load generator
 * competing for the same cores decides as much as the server.
 */
export function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name (field 2) may hold spaces: count fields from after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / USER_HZ;
}
