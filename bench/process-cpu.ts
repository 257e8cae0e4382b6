/**
 * CPU time by process, for figures per request or per URL: a node process by its pid, Redis by its own INFO
 * (its server process), PostgreSQL as the sum over its processes (a backend per connection, and the writers).
 */
import fs from "node:fs";
import { Redis } from "ioredis";
import { cpuSeconds } from "./load.ts";

/** CPU seconds used so far by each part: the keys are the parts' names. */
export type CpuReading = Map<string, number>;

/** CPU seconds every running PostgreSQL process has used so far, by pid. */
function postgresProcesses(): Map<number, number> {
  const found = new Map<number, number>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      if (stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")) === "postgres") found.set(Number(entry), cpuSeconds(Number(entry)));
    } catch {
      // The process ended meanwhile.
    }
  }
  return found;
}

/** Redis's own CPU seconds (its server, not the children it forks to save). */
async function redisSeconds(redis: Redis): Promise<number> {
  const info = await redis.info("cpu");
  const field = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, "m").exec(info)?.[1] ?? 0);
  return field("used_cpu_sys") + field("used_cpu_user");
}

/**
 * Reads the CPU of the named node processes, Redis and PostgreSQL, at a phase's start and end. PostgreSQL
 * backends that ended within the phase are not counted (the pools keep theirs open meanwhile).
 */
export class CpuMeter {
  private readonly redis: Redis;

  constructor(redisUrl: string) {
    this.redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  }

  /** Runs `phase` and answers what each part used meanwhile, in CPU seconds. */
  async during<T>(pids: Record<string, number>, phase: () => Promise<T>): Promise<[T, CpuReading]> {
    const before = await this.read(pids);
    const postgresBefore = postgresProcesses();
    const result = await phase();
    const after = await this.read(pids);
    const used: CpuReading = new Map([...after].map(([name, seconds]) => [name, seconds - (before.get(name) ?? 0)]));
    let postgres = 0;
    for (const [pid, seconds] of postgresProcesses()) postgres += seconds - (postgresBefore.get(pid) ?? 0);
    used.set("postgres", postgres);
    return [result, used];
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }

  private async read(pids: Record<string, number>): Promise<CpuReading> {
    const reading: CpuReading = new Map(Object.entries(pids).map(([name, pid]) => [name, cpuSeconds(pid)]));
    reading.set("redis", await redisSeconds(this.redis));
    return reading;
  }
}

/** The reading's total over every part. */
export const totalCpu = (reading: CpuReading) => [...reading.values()].reduce((sum, seconds) => sum + seconds, 0);

/** "api 1.2, worker-1 3.4, …" with each part's seconds scaled by `scale` (per request, per URL). */
export const describeCpu = (reading: CpuReading, scale: number, digits: number) =>
  [...reading].map(([name, seconds]) => `${name} ${(seconds * scale).toFixed(digits)}`).join(", ");
