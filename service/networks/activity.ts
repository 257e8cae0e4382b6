import type { Redis } from "ioredis";

/**
 * What one network did lately, for the health report: calls, errors and skipped calls per minute over the last
 * hour, and when it last answered well and last failed. Kept in this process's memory, or in Redis where every
 * API process and worker adds to the same figures.
 */
export interface NetworkActivity {
  record(ok: boolean, at: number): Promise<void>;
  /** A call the guard did not let through (a budget was spent, or the network asked us to wait). */
  skip(at: number): Promise<void>;
  read(now: number): Promise<ActivitySummary>;
  /** Writes what is counted and not yet shared: the process is stopping. */
  flush(): Promise<void>;
}

export interface ActivitySummary {
  callsLastHour: number;
  errorsLastHour: number;
  skippedLastHour: number;
  lastSuccessAt: number | null;
  lastErrorAt: number | null;
}

const MINUTE_MS = 60_000;
const MINUTES = 60;
const minuteOf = (at: number) => Math.floor(at / MINUTE_MS);

export class MemoryActivity implements NetworkActivity {
  private readonly calls = new Map<number, number>();
  private readonly errors = new Map<number, number>();
  private readonly skips = new Map<number, number>();
  private lastSuccessAt: number | null = null;
  private lastErrorAt: number | null = null;

  async record(ok: boolean, at: number): Promise<void> {
    this.add(this.calls, at);
    if (ok) this.lastSuccessAt = Math.max(this.lastSuccessAt ?? 0, at);
    else {
      this.add(this.errors, at);
      this.lastErrorAt = Math.max(this.lastErrorAt ?? 0, at);
    }
  }

  async skip(at: number): Promise<void> {
    this.add(this.skips, at);
  }

  async flush(): Promise<void> {}

  private add(counts: Map<number, number>, at: number): void {
    const minute = minuteOf(at);
    counts.set(minute, (counts.get(minute) ?? 0) + 1);
    // Minutes older than the hour are never read again.
    for (const key of counts.keys()) if (key <= minute - MINUTES) counts.delete(key);
  }

  async read(now: number): Promise<ActivitySummary> {
    const first = minuteOf(now) - MINUTES + 1;
    const sum = (map: Map<number, number>) => [...map].reduce((total, [minute, n]) => (minute >= first ? total + n : total), 0);
    return {
      callsLastHour: sum(this.calls),
      errorsLastHour: sum(this.errors),
      skippedLastHour: sum(this.skips),
      lastSuccessAt: this.lastSuccessAt,
      lastErrorAt: this.lastErrorAt,
    };
  }
}

// KEYS[1] the hash of the last answers' times; ARGV[1] the field, ARGV[2] a time: set only when later.
const LATEST = `
if tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0') < tonumber(ARGV[2]) then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end`;

/** The script above, as ioredis adds it to a MULTI. */
interface ActivityScripts<Batch> {
  activityLatest(key: string, field: string, at: number): Batch;
}

/** How long a process keeps the activity it counted before adding it to Redis: one write a second, not one per call. */
export const ACTIVITY_FLUSH_MS = 1_000;

/**
 * One counter key per minute (expiring after the hour), and the two times in one hash. What this process counts
 * is added in one MULTI at most `flushMs` after the first count, and before it reads: another process's report
 * lags by that much at most, this one's never; a stopping process adds what is left. Counts not yet added when
 * a process is killed are lost (a second of health figures, never a budget: those are taken in Redis before
 * each call). The last good and failed answers' times only ever move forward, whichever process writes last.
 */
export class RedisActivity implements NetworkActivity {
  private counts = new Map<string, number>();
  private last: { ok: number | null; error: number | null } = { ok: null, error: null };
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly flushMs = ACTIVITY_FLUSH_MS,
  ) {
    redis.defineCommand("activityLatest", { numberOfKeys: 1, lua: LATEST });
  }

  async record(ok: boolean, at: number): Promise<void> {
    const minute = minuteOf(at);
    this.add(`calls:${minute}`);
    if (ok) this.last.ok = Math.max(this.last.ok ?? 0, at);
    else {
      this.add(`errors:${minute}`);
      this.last.error = Math.max(this.last.error ?? 0, at);
    }
  }

  async skip(at: number): Promise<void> {
    this.add(`skipped:${minuteOf(at)}`);
  }

  private add(name: string): void {
    this.counts.set(name, (this.counts.get(name) ?? 0) + 1);
    // Unref'd: counting keeps no process alive. A failed write loses its second of figures; the next one goes on.
    this.timer ??= setTimeout(() => void this.flush().catch(() => {}), this.flushMs).unref();
  }

  /** Adds what this process counted to Redis now. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const { counts, last } = this;
    if (counts.size === 0) return;
    this.counts = new Map();
    this.last = { ok: null, error: null };
    const ttl = (MINUTES + 1) * 60;
    // One transaction: another process never reads the new counts beside the old times.
    const batch = this.redis.multi() as ReturnType<Redis["multi"]> & ActivityScripts<ReturnType<Redis["multi"]>>;
    for (const [name, n] of counts) batch.incrby(`${this.prefix}:${name}`, n).expire(`${this.prefix}:${name}`, ttl);
    if (last.ok !== null) batch.activityLatest(`${this.prefix}:last`, "ok", last.ok);
    if (last.error !== null) batch.activityLatest(`${this.prefix}:last`, "error", last.error);
    await batch.exec();
  }

  async read(now: number): Promise<ActivitySummary> {
    // A failed write loses its counts, not the report.
    await this.flush().catch(() => {});
    const last = minuteOf(now);
    const minutes = Array.from({ length: MINUTES }, (_, i) => last - i);
    const perMinute = (name: string) => this.redis.mget(minutes.map((m) => `${this.prefix}:${name}:${m}`));
    const [calls, errors, skipped, times] = await Promise.all([
      perMinute("calls"),
      perMinute("errors"),
      perMinute("skipped"),
      this.redis.hmget(`${this.prefix}:last`, "ok", "error"),
    ]);
    const sum = (values: (string | null)[]) => values.reduce((total, v) => total + Number(v ?? 0), 0);
    const time = (value: string | null | undefined) => (value ? Number(value) : null);
    return { callsLastHour: sum(calls), errorsLastHour: sum(errors), skippedLastHour: sum(skipped), lastSuccessAt: time(times[0]), lastErrorAt: time(times[1]) };
  }
}
