import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { perTick } from "../../lib/store/per-tick.ts";
import type { CallPurpose, GuardOptions, GuardState } from "./guard.ts";

const HOUR_SECONDS = 3600;

/** What a call took from the budgets: given back when the call is not made after all. */
export type Taken = { refusal: null; giveBack: () => Promise<void> } | { refusal: string };

/** One budget a call takes a point from. */
interface Step {
  refusal: string;
  take: () => Promise<boolean>;
  giveBack: () => Promise<unknown>;
}

/** What refreshes have taken of their share, and when it opens again once spent. */
export interface RefreshUsage {
  usedLastHour: number;
  spent: boolean;
  opensAt: number;
}

/**
 * A network's rate budgets, in this process's memory or in Redis (shared by every process): calls per app an
 * hour or a minute, calls per URL an hour (Facebook), and the share of the app's hour scheduled refreshes may
 * take, a minute's worth at a time.
 */
export class NetworkBudgets {
  private readonly perUrl: RateLimiterAbstract | null;
  private readonly app: RateLimiterAbstract | null;
  private readonly appMinute: RateLimiterAbstract | null;
  /** The app-wide budgets, the same steps for every call. */
  private readonly appWide: Step[] = [];
  private readonly refreshStep: Step;
  private readonly refresh: RateLimiterAbstract | null;
  /** The refresh share spread over the hour, a minute's worth at a time (see takeRefresh). */
  private readonly refreshPace: RateLimiterAbstract | null;
  /** Calls allowed per hour (null: no budget). */
  readonly perHour: number | null;
  /** The refresh share of them (Infinity: no budget, refreshes are only paced by backoff). */
  readonly refreshPoints: number;

  constructor(state: GuardState, options: Pick<GuardOptions, "perUrlPerHour" | "appPerHour" | "appPerMinute" | "refreshShare">) {
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
    const take = (limiter: RateLimiterAbstract) => (state.kind === "redis" ? takenTogether(limiter, "app") : () => taken(limiter, "app"));
    const { app, appMinute } = this;
    if (app) this.appWide.push({ refusal: "app-wide budget used up", take: take(app), giveBack: () => app.reward("app", 1) });
    if (appMinute) this.appWide.push({ refusal: "app-wide budget for this minute used up", take: take(appMinute), giveBack: () => appMinute.reward("app", 1) });
    this.refreshStep = { refusal: "refresh share of the budget used up", take: () => this.takeRefresh(), giveBack: () => this.giveBackRefresh() };
    this.perHour = options.appPerHour ?? (options.appPerMinute ? options.appPerMinute * 60 : null);
    this.refreshPoints = this.perHour ? Math.floor(this.perHour * (options.refreshShare ?? 1)) : Infinity;
    this.refresh = Number.isFinite(this.refreshPoints) && this.refreshPoints > 0 ? limiter("refresh", this.refreshPoints) : null;
    this.refreshPace = this.refresh ? limiter("refresh-minute", Math.ceil(this.refreshPoints / 60), 60) : null;
  }

  /**
   * Takes one call from each budget the call needs, or says which has no room (with what was taken given back).
   * The refresh share and the per-URL budget come first, together; the app-wide budgets only after they had
   * room, so a call they refuse never takes from what every call shares. A failure (Redis) is thrown once what
   * was taken has been given back.
   */
  async take(url: string, purpose: CallPurpose): Promise<Taken> {
    const first: Step[] = [];
    if (purpose === "refresh" && this.refreshPoints !== Infinity) first.push(this.refreshStep);
    const { perUrl } = this;
    if (perUrl) first.push({ refusal: "per-URL budget used up", take: () => taken(perUrl, url), giveBack: () => perUrl.reward(url, 1) });
    const refusal = (await takeAll(first)) ?? (await takeAll(this.appWide, first));
    if (refusal !== null) return { refusal };
    return { refusal: null, giveBack: () => giveBackAll([...first, ...this.appWide]) };
  }

  /**
   * A refresh takes from the hour's share, and no more than a minute's worth of it each minute: a backlog (one
   * account importing 50,000 URLs, say) cannot spend the hour in its first seconds, so URLs tracked later in the
   * hour (another account's) still get their turn within a minute.
   */
  private async takeRefresh(): Promise<boolean> {
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

  /** What refreshes took in the last hour; spent until the hour's share, or this minute's part of it, opens again. */
  async refreshUsage(now: number): Promise<RefreshUsage> {
    const [refresh, pace] = await Promise.all([this.refresh ? this.refresh.get("refresh") : null, this.refreshPace ? this.refreshPace.get("refresh") : null]);
    // A refused call counts in the limiter too: what refreshes took is at most the share.
    const usedLastHour = Math.min(refresh?.consumedPoints ?? 0, this.refreshPoints);
    const hourSpent = this.refresh !== null && usedLastHour >= this.refreshPoints;
    const minuteSpent = pace !== null && pace.consumedPoints >= Math.ceil(this.refreshPoints / 60);
    const opensAt = now + Math.max(hourSpent ? (refresh?.msBeforeNext ?? 0) : 0, minuteSpent ? (pace?.msBeforeNext ?? 0) : 0);
    return { usedLastHour, spent: hourSpent || minuteSpent, opensAt };
  }

  /** When this app's own budget opens again, if it is used up now. */
  async resetsAt(now: number): Promise<number | null> {
    let until: number | null = null;
    for (const [limiter, points] of [
      [this.app, this.perHour],
      [this.appMinute, this.perHour === null ? null : this.perHour / 60],
    ] as const) {
      const used = limiter ? await limiter.get("app") : null;
      if (used && points !== null && used.consumedPoints >= points) until = Math.max(until ?? 0, now + used.msBeforeNext);
    }
    return until;
  }
}

/**
 * Takes from every step at once: null when all had room, else the first refusal, once what these steps and
 * `before` took has been given back. A failure is thrown likewise.
 */
async function takeAll(steps: Step[], before: Step[] = []): Promise<string | null> {
  if (steps.length === 0) return null;
  const results = await Promise.allSettled(steps.map((step) => step.take()));
  const took = steps.filter((_, i) => results[i]!.status === "fulfilled" && (results[i] as PromiseFulfilledResult<boolean>).value);
  if (took.length === steps.length) return null;
  await giveBackAll([...before, ...took]);
  const failed = results.find((result) => result.status === "rejected");
  if (failed) throw failed.reason;
  return steps.find((step) => !took.includes(step))!.refusal;
}

/** Gives back what steps took; a point that cannot be given back (Redis down) only leaves the budget smaller for its window. */
async function giveBackAll(steps: Step[]): Promise<void> {
  await Promise.allSettled(steps.map((step) => step.giveBack()));
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
