import type { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { MemoryActivity, RedisActivity, type NetworkActivity } from "./activity.ts";
import { type AnswerKind, type Backoff, type GuardTicket, MemoryBackoff, RedisBackoff } from "./backoff.ts";
import { logLine, type NetworkStateLine } from "./state-line.ts";
import { perTick } from "../../lib/store/per-tick.ts";
import type { NetworkFailure } from "./types.ts";

export interface GuardOptions {
  /** Calls allowed per URL per hour (Facebook: 10). */
  perUrlPerHour?: number;
  /** Calls allowed per hour for the whole app. */
  appPerHour?: number;
  /** Calls allowed per minute for the whole app (a network that limits by the minute, as Reddit does). */
  appPerMinute?: number;
  /**
   * The share of `appPerHour` scheduled refreshes may take (0 to 1): they never take more, so live queries
   * keep working while the schedule is behind.
   */
  refreshShare?: number;
  /** The network's name in the state-change log lines, e.g. "facebook". */
  network: string;
  /**
   * How long the one call let through after a pause (the probe) holds the network before another call may
   * probe in its place: the network timeout plus a margin, so a probe that never reports back (its process
   * was killed) cannot keep the network closed.
   */
  probeTimeoutMs?: number;
  /** The clock that pauses are computed from. */
  now?: () => number;
  /** Where state changes go: one line per change (default: one JSON line on stdout or stderr). */
  log?: (line: NetworkStateLine) => void;
  /** On Redis, how long this process's call counts wait to be added for every process's report (ACTIVITY_FLUSH_MS). */
  activityFlushMs?: number;
}

/**
 * Where a guard keeps its budgets and backoff: this process's memory (`npm start`, or any process without
 * Redis), or Redis, where every API process and worker shares them: the networks limit the app, not each
 * process, and a throttling answer seen by one makes all of them back off.
 */
export type GuardState = { kind: "memory" } | { kind: "redis"; redis: Redis; prefix: string };

/**
 * What the guard needs of an answer: whether it was good, and if not, why (the network's error code, and
 * how long it asked us to wait).
 */
export type NetworkRecord = { ok: true } | { ok: false; failure: NetworkFailure; code?: number; detail?: string; retryAfterMs?: number };

/** A network's health as the guard sees it: what `GET /v2/networks` reports. */
export interface NetworkHealth {
  /**
   * `throttled`: backing off after the network throttled us, or this app's own budget is used up (until
   * `retryAt`); `unavailable`: the last answer was a failure; `credentials_rejected`: the network refused
   * our credentials.
   */
  state: "ok" | "throttled" | "unavailable" | "credentials_rejected" | "budget_exhausted";
  retryAt: number | null;
  lastSuccessAt: number | null;
  errorsLastHour: number;
  callsLastHour: number;
  /** Calls not made in the last hour: a budget was spent, or the network had asked us to wait. */
  skippedLastHour: number;
  /** Calls allowed per hour (null: no budget); the calls of the last hour count against it. */
  budgetPerHour: number | null;
  /** The share of it scheduled refreshes may take (null: no budget), and what they took in the last hour. */
  refreshPerHour: number | null;
  refreshUsedLastHour: number;
}

/** Who a call is for: a user's query (live), or a scheduled refresh, which only gets its share of the budget. */
export type CallPurpose = "live" | "refresh";

/** A call may be made now (with its ticket), or not, and why. */
export type Admission = { refusal: null; ticket: GuardTicket } | { refusal: string };

export type { NetworkStateLine };

const HOUR_SECONDS = 3600;
const BACKOFF_INITIAL_MS = 30_000;
const BACKOFF_MAX_MS = 15 * 60_000;
const DEFAULT_PROBE_TIMEOUT_MS = 30_000;

/**
 * Keeps one network inside its rate budgets and backs off after it throttles us, so a throttled network
 * is asked again only after a growing pause (30 s, doubling to 15 min) instead of being hammered, which
 * extends the throttling.
 *
 * One throttling episode is one step: the answers to calls that were already in flight when the network
 * throttled (or when the pause was last extended) do not extend it again. When the pause is over, one call
 * (the probe) is let through and the others are still refused until it answers: a good answer opens the
 * network again (and the next throttling starts over at 30 s), a throttling answer doubles the pause.
 * Every change of state (throttled, recovered, credentials rejected) is logged once, by the process that
 * made it.
 */
export class NetworkGuard {
  private readonly perUrl: RateLimiterAbstract | null;
  private readonly app: RateLimiterAbstract | null;
  private readonly appMinute: RateLimiterAbstract | null;
  private readonly takeApp: (() => Promise<boolean>) | null;
  private readonly takeAppMinute: (() => Promise<boolean>) | null;
  private readonly activity: NetworkActivity;
  private readonly budgetPerHour: number | null;
  private readonly refresh: RateLimiterAbstract | null;
  /** The refresh share spread over the hour, a minute's worth at a time (see admitRefresh). */
  private readonly refreshPace: RateLimiterAbstract | null;
  private readonly backoff: Backoff;
  private readonly network: string;
  private readonly refreshPoints: number;
  private readonly probeTimeoutMs: number;
  private readonly now: () => number;
  private readonly log: (line: NetworkStateLine) => void;
  /** Whether the gate was open the last time this process asked (see decide). */
  private lastGateOpen = true;

  constructor(state: GuardState, options: GuardOptions) {
    const limiter = (name: string, points: number | undefined, duration = HOUR_SECONDS): RateLimiterAbstract | null => {
      if (!points) return null;
      const limits = { points, duration };
      return state.kind === "redis"
        ? new RateLimiterRedis({ storeClient: state.redis, keyPrefix: `${state.prefix}:${name}`, ...limits })
        : new RateLimiterMemory({ keyPrefix: name, ...limits });
    };
    this.perUrl = limiter("url", options.perUrlPerHour);
    this.app = limiter("app", options.appPerHour);
    this.appMinute = limiter("app-minute", options.appPerMinute, 60);
    // On Redis a turn's calls take together (one round trip); in memory there is no round trip to save.
    const take = (limiter: RateLimiterAbstract | null) =>
      limiter && (state.kind === "redis" ? takenTogether(limiter, "app") : () => taken(limiter, "app"));
    this.takeApp = take(this.app);
    this.takeAppMinute = take(this.appMinute);
    this.budgetPerHour = options.appPerHour ?? (options.appPerMinute ? options.appPerMinute * 60 : null);
    // Without an app budget there is nothing to take a share of: refreshes are then only paced by backoff.
    this.refreshPoints = this.budgetPerHour ? Math.floor(this.budgetPerHour * (options.refreshShare ?? 1)) : Infinity;
    this.refresh = Number.isFinite(this.refreshPoints) && this.refreshPoints > 0 ? limiter("refresh", this.refreshPoints) : null;
    this.refreshPace = this.refresh ? limiter("refresh-minute", Math.ceil(this.refreshPoints / 60), 60) : null;
    this.backoff = state.kind === "redis" ? new RedisBackoff(state.redis, `${state.prefix}:backoff`) : new MemoryBackoff();
    this.activity = state.kind === "redis" ? new RedisActivity(state.redis, `${state.prefix}:activity`, options.activityFlushMs) : new MemoryActivity();
    this.network = options.network;
    this.probeTimeoutMs = options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
    this.now = options.now ?? Date.now;
    this.log = options.log ?? logLine;
  }

  /**
   * Whether the network may be called for this URL now: a ticket to hand back to `record` with the answer
   * (the call is then budgeted), or why not. A refused call is counted as skipped, for the health report.
   */
  async admit(url: string, purpose: CallPurpose = "live"): Promise<Admission> {
    const admission = await this.decide(url, purpose);
    if (admission.refusal !== null) await this.activity.skip(this.now());
    return admission;
  }

  private async decide(url: string, purpose: CallPurpose): Promise<Admission> {
    const refresh = purpose === "refresh" && this.refreshPoints !== Infinity;
    // While the network is open, the gate and the budgets are asked together (on Redis, autopipelining sends
    // them in one write) and what was taken goes back when one refuses. While it backs off, the gate alone is
    // asked first: every call then is refused, and each would otherwise take and give back its budgets.
    const open = this.lastGateOpen;
    const gating = this.backoff.admit(this.now(), this.probeTimeoutMs);
    const gate = open ? null : await gating;
    if (gate && "waitMs" in gate) return { refusal: this.waiting(gate) };
    const [admitted, refreshTaken, urlTaken, appTaken, minuteTaken] = await Promise.all([
      gate ?? gating,
      refresh ? this.admitRefresh() : true,
      this.perUrl ? taken(this.perUrl, url) : true,
      this.takeApp ? this.takeApp() : true,
      this.takeAppMinute ? this.takeAppMinute() : true,
    ]);
    this.lastGateOpen = !("waitMs" in admitted);
    const refusal =
      "waitMs" in admitted
        ? this.waiting(admitted)
        : !refreshTaken
          ? "refresh share of the budget used up"
          : !urlTaken
            ? "per-URL budget used up"
            : !appTaken
              ? "app-wide budget used up"
              : !minuteTaken
                ? "app-wide budget for this minute used up"
                : null;
    if (refusal === null && !("waitMs" in admitted)) return { refusal, ticket: admitted };
    // No call is made: what was taken for it goes back, as does a probe slot (to the next call).
    await Promise.all([
      refresh && refreshTaken ? this.giveBackRefresh() : null,
      this.perUrl && urlTaken ? this.perUrl.reward(url, 1) : null,
      this.app && appTaken ? this.app.reward("app", 1) : null,
      this.appMinute && minuteTaken ? this.appMinute.reward("app", 1) : null,
      !("waitMs" in admitted) && admitted.probe ? this.backoff.record(admitted, "other", this.now(), 0, 0) : null,
    ]);
    return { refusal: refusal! };
  }

  private waiting(gate: { waitMs: number; probing: boolean }): string {
    return gate.probing
      ? "backing off after throttling: waiting for the answer to the probe call"
      : `backing off after throttling for ${Math.ceil(gate.waitMs / 1000)} s`;
  }

  /**
   * A refresh takes from the hour's share, and no more than a minute's worth of it each minute: a backlog (one
   * account importing 50,000 URLs, say) cannot spend the hour in its first seconds, so URLs tracked later in the
   * hour (another account's) still get their turn within a minute.
   */
  private async admitRefresh(): Promise<boolean> {
    if (!this.refresh || !this.refreshPace) return false;
    if (!(await taken(this.refreshPace, "refresh"))) return false;
    if (await taken(this.refresh, "refresh")) return true;
    await this.refreshPace.reward("refresh", 1);
    return false;
  }

  private async giveBackRefresh(): Promise<void> {
    await Promise.all([this.refresh?.reward("refresh", 1), this.refreshPace?.reward("refresh", 1)]);
  }

  /** How many refresh calls the budget still allows now: this minute's pace, within the hour's share (Infinity: no budget). */
  async refreshesLeft(): Promise<number> {
    if (this.refreshPoints === Infinity) return Infinity;
    if (!this.refresh || !this.refreshPace) return 0;
    const [hour, minute] = await Promise.all([this.refresh.get("refresh"), this.refreshPace.get("refresh")]);
    const paced = Math.ceil(this.refreshPoints / 60);
    return Math.max(0, Math.min(this.refreshPoints - (hour?.consumedPoints ?? 0), paced - (minute?.consumedPoints ?? 0)));
  }

  /** The network's state now, its last hour of calls, and its budget. */
  async health(): Promise<NetworkHealth> {
    const now = this.now();
    const [backoff, activity, budgetResetsAt, refresh, pace] = await Promise.all([
      this.backoff.read(now),
      this.activity.read(now),
      this.budgetResetsAt(now),
      this.refresh ? this.refresh.get("refresh") : null,
      this.refreshPace ? this.refreshPace.get("refresh") : null,
    ]);
    const throttledUntil = backoff.throttledUntil ?? budgetResetsAt;
    // A refused call counts in the limiter too: what refreshes took is at most the share.
    const refreshUsed = Math.min(refresh?.consumedPoints ?? 0, this.refreshPoints);
    // Refreshes wait for the hour's share, or for this minute's part of it: until whichever opens later.
    const hourSpent = this.refresh !== null && refreshUsed >= this.refreshPoints;
    const minuteSpent = pace !== null && pace.consumedPoints >= Math.ceil(this.refreshPoints / 60);
    const refreshSpent = hourSpent || minuteSpent;
    const refreshOpensAt = now + Math.max(hourSpent ? (refresh?.msBeforeNext ?? 0) : 0, minuteSpent ? (pace?.msBeforeNext ?? 0) : 0);
    const state = backoff.credentialsRejected
      ? "credentials_rejected"
      : throttledUntil !== null
        ? "throttled"
        : activity.lastErrorAt !== null && activity.lastErrorAt > (activity.lastSuccessAt ?? 0)
          ? "unavailable"
          : refreshSpent
            ? "budget_exhausted"
            : "ok";
    return {
      state,
      retryAt: state === "throttled" ? throttledUntil : state === "budget_exhausted" ? refreshOpensAt : null,
      lastSuccessAt: activity.lastSuccessAt,
      errorsLastHour: activity.errorsLastHour,
      callsLastHour: activity.callsLastHour,
      skippedLastHour: activity.skippedLastHour,
      budgetPerHour: this.budgetPerHour,
      refreshPerHour: Number.isFinite(this.refreshPoints) ? this.refreshPoints : null,
      refreshUsedLastHour: refreshUsed,
    };
  }

  /** When this app's own budget opens again, if it is used up now. */
  private async budgetResetsAt(now: number): Promise<number | null> {
    let until: number | null = null;
    for (const [limiter, points] of [
      [this.app, this.budgetPerHour],
      [this.appMinute, this.budgetPerHour === null ? null : this.budgetPerHour / 60],
    ] as const) {
      const used = limiter ? await limiter.get("app") : null;
      if (used && points !== null && used.consumedPoints >= points) until = Math.max(until ?? 0, now + used.msBeforeNext);
    }
    return until;
  }

  /** Shares what this process counted and has not yet shared (the process is stopping). */
  close(): Promise<void> {
    return this.activity.flush();
  }

  /** The answer to a call `admit` let through. */
  async record(ticket: GuardTicket, outcome: NetworkRecord): Promise<void> {
    // "Unreported" is an answer (the network has no count for the URL), not an error.
    await this.activity.record(outcome.ok || outcome.failure === "unreported", this.now());
    const kind: AnswerKind = outcome.ok
      ? "ok"
      : outcome.failure === "throttled"
        ? "throttled"
        : outcome.failure === "rejected"
          ? "rejected"
          : "other";
    const retryAfterMs = !outcome.ok && kind === "throttled" ? outcome.retryAfterMs : undefined;
    const change = await this.backoff.record(ticket, kind, this.now(), BACKOFF_INITIAL_MS, BACKOFF_MAX_MS, retryAfterMs);
    if (!change) return;
    const network = this.network;
    const why: { code?: number; detail?: string } = {};
    if (!outcome.ok && outcome.code !== undefined) why.code = outcome.code;
    if (!outcome.ok && outcome.detail) why.detail = outcome.detail;
    if (change.state === "recovered") this.log({ event: "network_state", network, state: "recovered" });
    else if (change.state === "credentials_rejected") this.log({ event: "network_state", network, state: "credentials_rejected", ...why });
    else {
      this.log({
        event: "network_state",
        network,
        state: "throttled",
        until: new Date(change.until).toISOString(),
        pause_seconds: change.pauseMs / 1000,
        ...why,
      });
    }
  }
}

/**
 * Takes one call from an app-wide budget, the calls of one turn together in one consume: those it had room
 * for get true, in order, the rest false (what they took stays taken, as a single refused consume's does).
 */
function takenTogether(limiter: RateLimiterAbstract, key: string): () => Promise<boolean> {
  const take = perTick(async (calls: null[]) => {
    let allowed = calls.length;
    try {
      await limiter.consume(key, calls.length);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      // consumedPoints counts these calls too: the ones past the budget are refused.
      const over = error.consumedPoints - limiter.points;
      allowed = over > 0 ? Math.max(0, calls.length - over) : 0;
    }
    return calls.map((_, i) => i < allowed);
  });
  return () => take(null);
}

/** Takes one call from the budget; false when it is used up. */
async function taken(limiter: RateLimiterAbstract, key: string): Promise<boolean> {
  try {
    await limiter.consume(key);
    return true;
  } catch (error) {
    if (error instanceof RateLimiterRes) return false;
    throw error;
  }
}
