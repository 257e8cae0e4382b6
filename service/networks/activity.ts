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

/** One counter key per minute (expiring after the hour), and the two times in one hash. */
export class RedisActivity implements NetworkActivity {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async record(ok: boolean, at: number): Promise<void> {
    const minute = minuteOf(at);
    const ttl = (MINUTES + 1) * 60;
    const batch = this.redis.multi().incr(`${this.prefix}:calls:${minute}`).expire(`${this.prefix}:calls:${minute}`, ttl);
    if (ok) batch.hset(`${this.prefix}:last`, "ok", at);
    else batch.incr(`${this.prefix}:errors:${minute}`).expire(`${this.prefix}:errors:${minute}`, ttl).hset(`${this.prefix}:last`, "error", at);
    await batch.exec();
  }

  async skip(at: number): Promise<void> {
    const key = `${this.prefix}:skipped:${minuteOf(at)}`;
    await this.redis.multi().incr(key).expire(key, (MINUTES + 1) * 60).exec();
  }

  async read(now: number): Promise<ActivitySummary> {
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
