import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import { ROOT } from "./admin-cli.ts";

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The ports the kernel hands out for outgoing connections. A port a child is told to listen on must lie outside them:
 * otherwise, in the seconds a child takes to start, a busy test run's own connections can take it (EADDRINUSE).
 */
function ephemeralRange(): [number, number] {
  try {
    const [low, high] = fs.readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/).map(Number);
    if (low !== undefined && high !== undefined && Number.isInteger(low) && Number.isInteger(high)) return [low, high];
  } catch {
    // Not Linux: the IANA dynamic range, which macOS and Windows use.
  }
  return [49152, 65535];
}

async function listensFree(port: number): Promise<boolean> {
  const server = net.createServer();
  const bound = await new Promise<boolean>((resolve) => {
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => resolve(true));
  });
  if (bound) await new Promise<void>((resolve) => server.close(() => resolve()));
  return bound;
}

/** Ports this process handed out: two children started one after the other must not be told the same one. */
const handedOut = new Set<number>();

/** A port nothing listens on now, on 127.0.0.1, chosen at random below the ephemeral range (or above it). */
export async function freePort(): Promise<number> {
  const [low, high] = ephemeralRange();
  const [from, to] = low > 11_000 ? [10_000, low - 1] : high < 64_000 ? [high + 1, 65_535] : [1024, 65_535];
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = from + Math.floor(Math.random() * (to - from + 1));
    if (handedOut.has(port) || !(await listensFree(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`no free port between ${from} and ${to}`);
}

/** A process started by a test or a benchmark: its output (for failure messages) and its exit. */
export interface Child {
  name: string;
  process: ChildProcess;
  output: string[];
  /** Settles when the process exits (code null if it could not start); never rejects. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface SpawnOptions {
  /** Lead a process group of its own, so a wrapper's inner process (tsx's node) is signalled with it. */
  detached?: boolean;
  /** Each line of output as it arrives. */
  onLine?: (line: string) => void;
}

/** Runs `command args` in ROOT, keeping its output. */
export function spawnChild(name: string, command: string, args: string[], env: NodeJS.ProcessEnv, options: SpawnOptions = {}): Child {
  const child = spawn(command, args, { cwd: ROOT, env, detached: options.detached ?? false, stdio: ["ignore", "pipe", "pipe"] });
  const output: string[] = [];
  for (const stream of [child.stdout!, child.stderr!]) {
    let rest = "";
    stream.setEncoding("utf8").on("data", (chunk: string) => {
      output.push(chunk);
      if (!options.onLine) return;
      const lines = (rest + chunk).split("\n");
      rest = lines.pop()!;
      for (const line of lines) options.onLine(line);
    });
  }
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
    child.once("error", (error) => {
      output.push(`${error.message}\n`);
      resolve({ code: null, signal: null });
    });
  });
  return { name, process: child, output, exited };
}

/**
 * Starts an entry point (`start/api.ts`, `start/worker.ts`, …) as a real child process.
 * It is `node --import tsx <script>`, not the `tsx` command: the tsx command runs the script in a
 * grandchild process and only relays catchable signals, so SIGKILL of it would leave the service running.
 */
export function startChild(name: string, script: string, env: NodeJS.ProcessEnv): Child {
  return spawnChild(name, process.execPath, ["--import", "tsx", script], env);
}

export const running = (child: Child) => child.process.exitCode === null && child.process.signalCode === null;

/** SIGKILLs whatever is still running. */
export async function killAll(children: Child[]): Promise<void> {
  for (const child of children) {
    if (running(child)) {
      child.process.kill("SIGKILL");
      await child.exited;
    }
  }
}

/**
 * Polls `read` until `done` holds; fails (with the last answer and the children's output) after
 * `timeoutMs`, or as soon as one of `watch` exits. Not a timing assertion.
 */
export async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000, watch: Child[] = []): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  const outputs = () => watch.map((c) => `--- ${c.name}:\n${c.output.join("")}`).join("\n");
  for (;;) {
    const exited = watch.find((c) => !running(c));
    if (exited) throw new Error(`${exited.name} exited while waiting for ${what}:\n${outputs()}`);
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(value).slice(0, 500)}\n${outputs()}`);
    await sleep(20);
  }
}

/** Waits until `url` answers 200 (a status or health endpoint). */
export async function waitHealthy(url: string, child: Child, timeoutMs = 45_000): Promise<void> {
  await until(
    `GET ${url} to answer 200`,
    async () => {
      try {
        return (await fetch(url)).status;
      } catch {
        return 0;
      }
    },
    (status) => status === 200,
    timeoutMs,
    [child],
  );
}
