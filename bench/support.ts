/**
 * Shared helpers for the benchmarks: free ports, temp dirs, child processes that are always cleaned up,
 * the admin CLI, and waiting for /v1.0/status.
 */
import { execFile, type ChildProcess } from "node:child_process";
import fs from "node:fs";
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

/** Polls GET `path` (the API's status, a worker's /readyz) until it answers 200; fails if the child exits or the deadline passes. */
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
