import { LRUCache } from "lru-cache";
import type { NetworkFailure } from "./types.ts";

/** A token bucket: `capacity` calls, refilled evenly over `periodMs`. */
class TokenBucket {
  private tokens: number;
  private updatedAt: number;
  constructor(
    private readonly capacity: number,
    private readonly periodMs: number,
    now: number,
  ) {
    this.tokens = capacity;
    this.updatedAt = now;
  }
  take(now: number): boolean {
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.updatedAt) * this.capacity) / this.periodMs);
    this.updatedAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

export interface GuardOptions {
  /** Calls allowed per URL per hour (Facebook: 10). */
  perUrlPerHour?: number;
  /** Calls allowed per hour for the whole app. */
  appPerHour?: number;
  backoffInitialMs?: number;
  backoffMaxMs?: number;
  now?: () => number;
}

const HOUR = 3600_000;

/**
 * Keeps one network inside its rate budgets and backs off after it throttles us, so a throttled network
 * is asked again only after a growing pause instead of being hammered (which extends the throttling).
 */
export class NetworkGuard {
  private readonly perUrl: LRUCache<string, TokenBucket> | null;
  private readonly app: TokenBucket | null;
  private readonly now: () => number;
  private readonly backoffInitialMs: number;
  private readonly backoffMaxMs: number;
  private backoffMs = 0;
  private blockedUntil = 0;

  constructor(private readonly options: GuardOptions = {}) {
    this.now = options.now ?? Date.now;
    this.backoffInitialMs = options.backoffInitialMs ?? 30_000;
    this.backoffMaxMs = options.backoffMaxMs ?? 15 * 60_000;
    this.perUrl = options.perUrlPerHour ? new LRUCache({ max: 100_000, ttl: HOUR }) : null;
    this.app = options.appPerHour ? new TokenBucket(options.appPerHour, HOUR, this.now()) : null;
  }

  /** Why the network may not be called for this URL now, or null when it may (the call is then budgeted). */
  refusal(url: string): string | null {
    const now = this.now();
    if (now < this.blockedUntil) return `backing off after throttling for ${Math.ceil((this.blockedUntil - now) / 1000)} s`;
    if (this.perUrl && this.options.perUrlPerHour) {
      let bucket = this.perUrl.get(url);
      if (!bucket) {
        bucket = new TokenBucket(this.options.perUrlPerHour, HOUR, now);
        this.perUrl.set(url, bucket);
      }
      if (!bucket.take(now)) return "per-URL budget used up";
    }
    if (this.app && !this.app.take(now)) return "app-wide budget used up";
    return null;
  }

  record(outcome: { ok: true } | { ok: false; failure: NetworkFailure }): void {
    if (outcome.ok) {
      this.backoffMs = 0;
    } else if (outcome.failure === "throttled") {
      this.backoffMs = Math.min(this.backoffMaxMs, this.backoffMs ? this.backoffMs * 2 : this.backoffInitialMs);
      this.blockedUntil = this.now() + this.backoffMs;
    }
  }
}
