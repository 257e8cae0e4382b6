/**
 * Shared helpers for the benchmarks: free ports, temp dirs, child processes that are always cleaned up,
 * the admin CLI, waiting for /v1.0/status, and autocannon.
 */
import { execFile, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { ROOT, TSX } from "../test/support/admin-cli.ts";
import { freePort, sleep, spawnChild, type Child } from "../test/support/processes.ts";

export { ROOT, TSX };
export { freePort, sleep, type Child } from "../test/support/processes.ts";

export function log(line: string): void {
  console.log(`[bench] ${line}`);
}

export function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got ${raw}`);
  return value;
}

// ---- cleanup: children and temp dirs go away on success, error, SIGINT/SIGTERM and exit ----

const children = new Set<ChildProcess>();
const tempDirs = new Set<string>();

/** Each child leads its own process group (detached), so tsx's inner node process is signalled too. */
function signal(child: ChildProcess, sig: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, sig);
  } catch {
    // already gone
  }
}

function cleanupNow(): void {
  for (const child of children) signal(child, "SIGKILL");
  children.clear();
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

process.on("exit", cleanupNow);
for (const sig of ["SIGINT", "SIGTERM"] as const) {
  process.on(sig, () => {
    log(`${sig}: stopping children`);
    cleanupNow();
    process.exit(130);
  });
}

export function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `sharecount-${prefix}-`));
  tempDirs.add(dir);
  return dir;
}

/** Runs a benchmark: prints an error loudly, always stops children (SIGTERM, then SIGKILL) and removes temp dirs. */
export async function runMain(main: () => Promise<number>): Promise<never> {
  let code = 1;
  try {
    code = await main();
  } catch (error) {
    console.error(`[bench] FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  }
  await Promise.all([...children].map((child) => stopChild(child)));
  cleanupNow();
  process.exit(code);
}

// ---- child processes ----

/** Starts a child in ROOT with extra env, in a process group of its own; its output is echoed prefixed with its name. */
export function startChild(name: string, command: string, args: string[], env: Record<string, string>): Child {
  const child = spawnChild(name, command, args, { ...process.env, ...env }, { detached: true, onLine: (line) => console.log(`[${name}] ${line}`) });
  children.add(child.process);
  void child.exited.then(() => children.delete(child.process));
  return child;
}

/** SIGTERM (the service drains and exits), SIGKILL after a grace period. */
export async function stopChild(child: ChildProcess | Child, graceMs = 15_000): Promise<void> {
  const proc = "process" in child ? child.process : child;
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  signal(proc, "SIGTERM");
  const timer = setTimeout(() => signal(proc, "SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
  // tsx runs the script in an inner node process of the same group: make sure nothing is left behind.
  signal(proc, "SIGKILL");
  children.delete(proc);
}

/** Runs a command to completion and returns its stdout; fails with its output when it exits non-zero. */
export async function run(command: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  try {
    const { stdout } = await promisify(execFile)(command, args, {
      cwd: ROOT,
      env: { ...process.env, ...env },
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${command} ${args.join(" ")} failed: ${e.message}\n${e.stdout ?? ""}${e.stderr ?? ""}`);
  }
}

/** Builds the dashboard if it is missing or stale (what `npm start` does first). */
export async function ensureBuild(): Promise<void> {
  log("ensuring the Next.js build exists (scripts/ensure-build.ts)");
  const child = startChild("ensure-build", TSX, ["scripts/ensure-build.ts"], {});
  const { code } = await child.exited;
  if (code !== 0) throw new Error(`scripts/ensure-build.ts exited with ${code}`);
}

/** A dedicated-plan account made with the admin CLI against databaseUrl; returns its API key. */
export async function createDedicatedAccount(databaseUrl: string, email = "bench@example.com"): Promise<string> {
  const stdout = await run(TSX, ["service/admin/cli.ts", "account:create", "--email", email, "--plan", "dedicated"], {
    DATABASE_URL: databaseUrl,
  });
  const last = stdout.trim().split("\n").at(-1) ?? "";
  const answer = JSON.parse(last) as { apikey?: string; plan?: string; error?: string };
  if (!answer.apikey || answer.plan !== "dedicated") throw new Error(`account:create answered ${last}`);
  log(`created account ${email} (plan ${answer.plan})`);
  return answer.apikey;
}

/** Polls GET `path` (the API's status, a worker's /healthz) until it answers 200; fails if the child exits or the deadline passes. */
export async function waitForStatus(base: string, child: Child, timeoutMs = 180_000, path = "/v1.0/status"): Promise<void> {
  let exited = false;
  void child.exited.then(() => (exited = true));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exited) throw new Error(`the process serving ${base} exited before it was ready`);
    try {
      const res = await fetch(`${base}${path}`);
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${base}${path} did not answer 200 within ${timeoutMs} ms`);
}


/** Fails unless the response is 200; returns the parsed JSON body. */
export async function getJson<T>(url: string, init?: RequestInit): Promise<T> {
  const res = await fetch(url, init);
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${init?.method ?? "GET"} ${url} answered ${res.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as T;
}

// ---- autocannon (CommonJS without bundled types: typed here for the few fields we read) ----

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { average: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  "2xx": number;
}
type Autocannon = (options: { url: string; connections: number; duration: number }) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

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

export async function load(url: string, connections: number, seconds: number): Promise<LoadResult> {
  const r = await autocannon({ url, connections, duration: seconds });
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

// ---- bulk jobs ----

export interface BulkAnswer {
  data: Record<string, unknown> | unknown[];
  _meta: { urls_completed: number; urls_queued: number; completed: boolean; bulk_id: string; paused_until?: string };
}

/**
 * Submits `urls` as one bulk job and polls (every `pollMs`) until it completes; checks that every URL was
 * answered and counted once (the account must have used no quota before). Resolves with the wall time.
 */
export async function runBulkJob(
  base: string,
  apiKey: string,
  urls: string[],
  options: { pollMs: number; deadlineMs: number },
): Promise<{ wallMs: number; dataKeys: number; quotaUsed: number; problems: string[] }> {
  const started = performance.now();
  const submitted = await getJson<{ count: number; bulk_id: string }>(`${base}/v1.0/bulk?apikey=${apiKey}`, {
    method: "POST",
    headers: { "content-type": "text/plain" },
    body: urls.join("\n"),
  });
  if (submitted.count !== urls.length) throw new Error(`the job accepted ${submitted.count} URLs, not ${urls.length}`);
  log(`bulk_id ${submitted.bulk_id} accepted after ${(performance.now() - started).toFixed(0)} ms`);
  const pollUrl = `${base}/v1.0/bulk?bulk_id=${submitted.bulk_id}&apikey=${apiKey}`;
  let answer: BulkAnswer;
  let lastLog = started;
  for (;;) {
    answer = await getJson<BulkAnswer>(pollUrl);
    if (answer._meta.completed) break;
    const now = performance.now();
    if (now - started > options.deadlineMs) throw new Error(`the job did not complete in ${((now - started) / 1000).toFixed(0)} s`);
    if (answer._meta.paused_until) throw new Error(`the job is paused until ${answer._meta.paused_until}`);
    if (now - lastLog >= 1000) {
      lastLog = now;
      log(`${((now - started) / 1000).toFixed(1)} s: ${answer._meta.urls_completed}/${answer._meta.urls_queued}`);
    }
    await sleep(options.pollMs);
  }
  const wallMs = performance.now() - started;
  log(`completed after ${(wallMs / 1000).toFixed(2)} s`);
  const dataKeys = Array.isArray(answer.data) ? 0 : Object.keys(answer.data).length;
  const quotaUsed = (await getJson<{ quota_used_today: number }>(`${base}/v1.0/quota?apikey=${apiKey}`)).quota_used_today;
  const problems = [
    ...(dataKeys === urls.length ? [] : [`data has ${dataKeys} keys, expected ${urls.length}`]),
    ...(quotaUsed === urls.length ? [] : [`quota_used_today is ${quotaUsed}, expected ${urls.length}`]),
  ];
  return { wallMs, dataKeys, quotaUsed, problems };
}
