import type { Redis } from "ioredis";
import { perTick } from "../../lib/store/per-tick.ts";

/**
 * Handed out with a call the guard lets through, handed back with its answer: which state the network was
 * in when the call started (answers to calls started before the last change are part of that change's
 * episode, not a new one), and whether the call is the probe after a pause.
 */
export interface GuardTicket {
  readonly generation: number;
  /** 0 for an ordinary call; for the probe, the time its slot expires (which also names it). */
  readonly probe: number;
  /**
   * The network was open and its credentials not rejected when the call started: a good answer, or one with no
   * verdict, cannot change the state (any change since moved the generation), so it need not be recorded.
   */
  readonly clean?: boolean;
}

/** `other`: an answer that says nothing about throttling or credentials (a failure, a timeout). */
export type AnswerKind = "ok" | "throttled" | "rejected" | "other";

/** A call may go (with its ticket), or must wait: `probing` when only because the probe has not answered. */
type Gate = GuardTicket | { waitMs: number; probing: boolean };

type Change = { state: "throttled"; pauseMs: number; until: number } | { state: "recovered" } | { state: "credentials_rejected" };

/**
 * The network's state: `generation` counts its changes; `ms` is the last pause (0: not throttled), `until`
 * its end, `probe` when the probe's slot expires (0: no probe out); `rejected` says the credentials were
 * rejected. Both implementations follow the same rules, the Redis one atomically across processes.
 */
export interface Backoff {
  /** Open: any call goes. Paused: none. Pause over: one call, the probe, until it answers or its slot expires. */
  admit(now: number, probeTimeoutMs: number): Promise<Gate>;
  /**
   * An answer changes the state only when its call started in the current state (same generation): a good
   * one opens the network, a throttling one pauses it twice as long as last time (initial after a good
   * answer, up to the maximum), a credentials rejection marks it. An answer from the probe that is neither
   * good nor throttling frees its slot for the next call. A throttling answer that said how long to wait
   * (`retryAfterMs`, from `Retry-After`) pauses that long instead (up to an hour). Returns the change
   * made, if any.
   */
  record(ticket: GuardTicket, kind: AnswerKind, now: number, initialMs: number, maxMs: number, retryAfterMs?: number): Promise<Change | null>;
  /** What the state is now, for the network health report. */
  read(now: number): Promise<BackoffState>;
}

/** `throttledUntil`: when the next call (the probe) may go, or null when the network is open. */
export interface BackoffState {
  throttledUntil: number | null;
  credentialsRejected: boolean;
}

/** The longest `Retry-After` honoured: a network asking for more is asked again (by the probe) after an hour. */
export const RETRY_AFTER_MAX_MS = 3_600_000;

/** The next pause: as long as the network asked (1 s to an hour), else twice the last one (at least the initial). */
export function nextPauseMs(lastMs: number, initialMs: number, maxMs: number, retryAfterMs?: number): number {
  if (retryAfterMs !== undefined) return Math.min(RETRY_AFTER_MAX_MS, Math.max(1000, retryAfterMs));
  // Never under the initial pause: a network that once asked for a second must not be probed every 2 s after.
  return lastMs ? Math.min(maxMs, Math.max(initialMs, lastMs * 2)) : initialMs;
}

export class MemoryBackoff implements Backoff {
  private generation = 0;
  private ms = 0;
  private until = 0;
  private probe = 0;
  private rejected = false;

  async admit(now: number, probeTimeoutMs: number): Promise<Gate> {
    if (this.ms === 0) return { generation: this.generation, probe: 0 };
    if (now < this.until) return { waitMs: this.until - now, probing: false };
    if (now < this.probe) return { waitMs: this.probe - now, probing: true };
    this.probe = now + probeTimeoutMs;
    return { generation: this.generation, probe: this.probe };
  }

  async read(now: number): Promise<BackoffState> {
    return { throttledUntil: this.ms === 0 ? null : Math.max(now, this.until, this.probe), credentialsRejected: this.rejected };
  }

  async record(ticket: GuardTicket, kind: AnswerKind, now: number, initialMs: number, maxMs: number, retryAfterMs?: number): Promise<Change | null> {
    // The probe answered without a verdict on throttling: the next call probes in its place.
    if ((kind === "other" || kind === "rejected") && ticket.probe !== 0 && ticket.probe === this.probe) this.probe = 0;
    if (kind === "other" || ticket.generation !== this.generation) return null;
    if (kind === "ok") {
      if (this.ms === 0 && !this.rejected) return null;
      this.generation++;
      this.ms = this.until = this.probe = 0;
      this.rejected = false;
      return { state: "recovered" };
    }
    if (kind === "rejected") {
      if (this.rejected) return null;
      this.generation++;
      this.rejected = true;
      return { state: "credentials_rejected" };
    }
    this.generation++;
    this.ms = nextPauseMs(this.ms, initialMs, maxMs, retryAfterMs);
    this.until = now + this.ms;
    this.probe = 0;
    return { state: "throttled", pauseMs: this.ms, until: this.until };
  }
}

// KEYS[1] the state hash; ARGV[1] now, ARGV[2] how long a probe holds its slot (ms). Returns
// {1, generation, probe, clean} when the call may go (clean: 1 when open with the credentials not rejected),
// {0, wait ms, 1 if only the probe is awaited} when not.
const ADMIT = `
local s = redis.call('HMGET', KEYS[1], 'gen', 'ms', 'until', 'probe', 'rejected')
local gen = tonumber(s[1] or '0')
if tonumber(s[2] or '0') == 0 then return {1, gen, 0, tonumber(s[5] or '0') == 0 and 1 or 0} end
local now = tonumber(ARGV[1])
local untl = tonumber(s[3] or '0')
if now < untl then return {0, untl - now, 0} end
local probe = tonumber(s[4] or '0')
if now < probe then return {0, probe - now, 1} end
probe = now + tonumber(ARGV[2])
redis.call('HSET', KEYS[1], 'probe', probe)
return {1, gen, probe, 0}`;

// KEYS[1] the state hash; ARGV[1] the answer's kind, ARGV[2] its call's generation, ARGV[3] its probe slot,
// ARGV[4] now, ARGV[5] initial and ARGV[6] maximum pause, ARGV[7] the network's Retry-After (ms; -1: none). Atomic, so answers that two processes receive
// at once to calls made in one state change it once: only the process that made the change hears of it
// ({1} recovered, {2, pause, until} throttled, {3} credentials rejected; {0} no change). Writes only on a
// change (most answers are good ones to an open network).
const RECORD = `
local s = redis.call('HMGET', KEYS[1], 'gen', 'ms', 'probe', 'rejected')
local gen = tonumber(s[1] or '0')
local ms = tonumber(s[2] or '0')
local kind = ARGV[1]
local probe = tonumber(ARGV[3])
if (kind == 'other' or kind == 'rejected') and probe ~= 0 and probe == tonumber(s[3] or '0') then
  redis.call('HSET', KEYS[1], 'probe', 0)
end
if kind == 'other' or tonumber(ARGV[2]) ~= gen then return {0} end
local rejected = tonumber(s[4] or '0')
if kind == 'ok' then
  if ms == 0 and rejected == 0 then return {0} end
  redis.call('HSET', KEYS[1], 'gen', gen + 1, 'ms', 0, 'until', 0, 'probe', 0, 'rejected', 0)
  return {1}
end
if kind == 'rejected' then
  if rejected == 1 then return {0} end
  redis.call('HSET', KEYS[1], 'gen', gen + 1, 'rejected', 1)
  return {3}
end
local retry = tonumber(ARGV[7])
if retry >= 0 then ms = math.min(${RETRY_AFTER_MAX_MS}, math.max(1000, retry))
elseif ms > 0 then ms = math.min(tonumber(ARGV[6]), math.max(tonumber(ARGV[5]), ms * 2)) else ms = tonumber(ARGV[5]) end
local untl = tonumber(ARGV[4]) + ms
redis.call('HSET', KEYS[1], 'gen', gen + 1, 'ms', ms, 'until', untl, 'probe', 0)
return {2, ms, untl}`;

interface BackoffScripts {
  guardAdmit(key: string, now: number, probeTimeoutMs: number): Promise<number[]>;
  guardRecord(key: string, kind: AnswerKind, generation: number, probe: number, now: number, initialMs: number, maxMs: number, retryAfterMs: number): Promise<number[]>;
}

/**
 * The state in one Redis hash that every process shares. It does not expire: its generation must outlive
 * every call in flight, and it is one small hash per network.
 */
export class RedisBackoff implements Backoff {
  private readonly scripts: BackoffScripts;

  constructor(
    private readonly redis: Redis,
    private readonly key: string,
  ) {
    redis.defineCommand("guardAdmit", { numberOfKeys: 1, lua: ADMIT });
    redis.defineCommand("guardRecord", { numberOfKeys: 1, lua: RECORD });
    this.scripts = redis as unknown as BackoffScripts;
  }

  /**
   * The calls of one turn ask together, in one run of the script: they share its gate, except a probe slot,
   * which is the first call's alone; the others wait for its answer.
   */
  private readonly admitTogether = perTick(async (asks: { now: number; probeTimeoutMs: number }[]): Promise<Gate[]> => {
    const { now, probeTimeoutMs } = asks[0]!;
    const [go, a, b, clean] = await this.scripts.guardAdmit(this.key, now, probeTimeoutMs);
    const gate: Gate = go === 1 ? { generation: a!, probe: b!, clean: clean === 1 } : { waitMs: a!, probing: b === 1 };
    const probeOnly = "probe" in gate && gate.probe !== 0;
    return asks.map((_, i) => (probeOnly && i > 0 ? { waitMs: Math.max(0, gate.probe - now), probing: true } : gate));
  });

  admit(now: number, probeTimeoutMs: number): Promise<Gate> {
    return this.admitTogether({ now, probeTimeoutMs });
  }

  async read(now: number): Promise<BackoffState> {
    const [ms, until, probe, rejected] = (await this.redis.hmget(this.key, "ms", "until", "probe", "rejected")).map(Number);
    return { throttledUntil: ms ? Math.max(now, until || 0, probe || 0) : null, credentialsRejected: rejected === 1 };
  }

  async record(ticket: GuardTicket, kind: AnswerKind, now: number, initialMs: number, maxMs: number, retryAfterMs?: number): Promise<Change | null> {
    // Most answers: a good one to an open network. The script would find nothing to change; no round trip.
    if (ticket.clean && (kind === "ok" || kind === "other")) return null;
    const [change, pauseMs, until] = await this.scripts.guardRecord(
      this.key,
      kind,
      ticket.generation,
      ticket.probe,
      now,
      initialMs,
      maxMs,
      retryAfterMs ?? -1,
    );
    if (change === 1) return { state: "recovered" };
    if (change === 2) return { state: "throttled", pauseMs: pauseMs!, until: until! };
    if (change === 3) return { state: "credentials_rejected" };
    return null;
  }
}
