import type { Redis } from "ioredis";
import { MemoryActivity, RedisActivity, type NetworkActivity } from "./activity.ts";
import { type AnswerKind, type Backoff, type GuardTicket, MemoryBackoff, RedisBackoff } from "./backoff.ts";
import { logLine, type NetworkStateLine } from "./state-line.ts";
import { NetworkBudgets } from "./budgets.ts";
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
  private readonly budgets: NetworkBudgets;
  private readonly activity: NetworkActivity;
  private readonly backoff: Backoff;
  private readonly network: string;
  private readonly probeTimeoutMs: number;
  private readonly now: () => number;
  private readonly log: (line: NetworkStateLine) => void;
  /** Whether the gate was open the last time this process asked (see decide). */
  private lastGateOpen = true;

  constructor(state: GuardState, options: GuardOptions) {
    this.budgets = new NetworkBudgets(state, options);
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
    const gating = this.backoff.admit(this.now(), this.probeTimeoutMs);
    // While the network backs off, the gate alone is asked first: every call is refused then, and would
    // otherwise take from the budgets only to give it back. While it is open, both are asked together (on
    // Redis, autopipelining sends them in one write).
    if (!this.lastGateOpen) {
      const gate = await gating;
      if ("waitMs" in gate) return { refusal: this.waiting(gate) };
    }
    const [gated, took] = await Promise.allSettled([gating, this.budgets.take(url, purpose)]);
    const gate = gated.status === "fulfilled" ? gated.value : null;
    const taken = took.status === "fulfilled" ? took.value : null;
    const ticket = gate && !("waitMs" in gate) ? gate : null;
    this.lastGateOpen = ticket !== null && ticket.probe === 0;
    if (ticket && taken && taken.refusal === null) return { refusal: null, ticket };
    // No call is made: what the budgets took goes back, as does a probe slot (to the next call).
    await Promise.allSettled([
      taken && taken.refusal === null ? taken.giveBack() : null,
      ticket && ticket.probe ? this.backoff.record(ticket, "other", this.now(), 0, 0) : null,
    ]);
    if (gated.status === "rejected") throw gated.reason;
    if (took.status === "rejected") throw took.reason;
    return { refusal: gate && "waitMs" in gate ? this.waiting(gate) : (taken as { refusal: string }).refusal };
  }

  private waiting(gate: { waitMs: number; probing: boolean }): string {
    return gate.probing
      ? "backing off after throttling: waiting for the answer to the probe call"
      : `backing off after throttling for ${Math.ceil(gate.waitMs / 1000)} s`;
  }

  /** How many refresh calls the budget still allows now: this minute's pace, within the hour's share (Infinity: no budget). */
  refreshesLeft(): Promise<number> {
    return this.budgets.refreshesLeft();
  }

  /** The network's state now, its last hour of calls, and its budget. */
  async health(): Promise<NetworkHealth> {
    const now = this.now();
    const [backoff, activity, budgetResetsAt, refresh] = await Promise.all([
      this.backoff.read(now),
      this.activity.read(now),
      this.budgets.resetsAt(now),
      this.budgets.refreshUsage(now),
    ]);
    const throttledUntil = backoff.throttledUntil ?? budgetResetsAt;
    const state = backoff.credentialsRejected
      ? "credentials_rejected"
      : throttledUntil !== null
        ? "throttled"
        : activity.lastErrorAt !== null && activity.lastErrorAt > (activity.lastSuccessAt ?? 0)
          ? "unavailable"
          : refresh.spent
            ? "budget_exhausted"
            : "ok";
    return {
      state,
      retryAt: state === "throttled" ? throttledUntil : state === "budget_exhausted" ? refresh.opensAt : null,
      lastSuccessAt: activity.lastSuccessAt,
      errorsLastHour: activity.errorsLastHour,
      callsLastHour: activity.callsLastHour,
      skippedLastHour: activity.skippedLastHour,
      budgetPerHour: this.budgets.perHour,
      refreshPerHour: Number.isFinite(this.budgets.refreshPoints) ? this.budgets.refreshPoints : null,
      refreshUsedLastHour: refresh.usedLastHour,
    };
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
    // The next calls of this process ask the gate first (see decide): the network is likely to back off now.
    if (kind === "throttled") this.lastGateOpen = false;
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
