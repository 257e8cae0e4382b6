import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectRedis } from "../../lib/redis/redis.ts";
import type { GuardTicket } from "../../service/networks/backoff.ts";
import { NetworkGuard, type Admission, type GuardOptions, type NetworkStateLine } from "../../service/networks/guard.ts";
import { dropRedisPrefix, REDIS_TEST_URL, testRedisPrefix } from "../support/redis.ts";
import { throttledLine } from "../support/network-state.ts";
import { until } from "../support/processes.ts";

/*
 * The networks limit the app, not each process: two guards on one Redis (two processes) share the budgets
 * and the backoff. One throttling episode is one step whichever processes saw it, one probe goes after the
 * pause, and each change is logged once, by the process that made it. Time is the injected clock's.
 */

const prefix = testRedisPrefix();
const redisA = connectRedis(REDIS_TEST_URL);
const redisB = connectRedis(REDIS_TEST_URL);

beforeAll(async () => {
  await Promise.all([redisA.ping(), redisB.ping()]);
});
afterAll(async () => {
  redisA.disconnect();
  redisB.disconnect();
  await dropRedisPrefix(prefix);
});

describe("NetworkGuard on Redis", () => {
  const START = Date.parse("2030-03-04T05:06:07Z");
  const throttled = { ok: false, failure: "throttled", code: 4 } as const;

  /** How often each process adds its call counts to Redis here (1 s in the service). */
  const FLUSH_MS = 50;
  /** What `guard` reports, once `done` holds: another process's counts arrive within FLUSH_MS. */
  const reported = (guard: NetworkGuard, done: (health: Awaited<ReturnType<NetworkGuard["health"]>>) => boolean) =>
    until("the counts in the report", () => guard.health(), done, 5_000);

  function ticketOf(admission: Admission): GuardTicket {
    if (admission.refusal !== null) throw new Error(`refused: ${admission.refusal}`);
    return admission.ticket;
  }

  /** Two processes' guards on one key prefix, on one clock; each logs into its own list. */
  function processes(name: string, options: Partial<GuardOptions> = {}) {
    const clock = { now: START };
    const guard = (redis: typeof redisA, lines: NetworkStateLine[]) =>
      new NetworkGuard(
        { kind: "redis", redis, prefix: `${prefix}:${name}` },
        { network: "facebook", now: () => clock.now, log: (l) => lines.push(l), activityFlushMs: FLUSH_MS, ...options },
      );
    const linesA: NetworkStateLine[] = [];
    const linesB: NetworkStateLine[] = [];
    return { clock, a: guard(redisA, linesA), b: guard(redisB, linesB), linesA, linesB };
  }

  it("pauses every process as long as the network's Retry-After says, and both report the same health", async () => {
    const { clock, a, b } = processes("retry-after");
    await a.record(ticketOf(await a.admit("https://example.com/a")), { ok: false, failure: "throttled", retryAfterMs: 90_000 });
    expect((await b.admit("https://example.com/b")).refusal).toBe("backing off after throttling for 90 s");
    // The pause is shared at once; the call counts within FLUSH_MS, when a adds them for every process.
    expect(await b.health()).toMatchObject({ state: "throttled", retryAt: START + 90_000 });
    expect(await reported(b, (h) => h.callsLastHour === 1)).toMatchObject({ errorsLastHour: 1, callsLastHour: 1 });
    // The call b did not make is counted where every process reads it.
    expect(await reported(a, (h) => h.skippedLastHour === 1)).toMatchObject({ skippedLastHour: 1 });
    clock.now = START + 90_000;
    // A bare 429 after it: twice the last pause, as without Retry-After.
    await b.record(ticketOf(await b.admit("https://example.com/probe")), { ok: false, failure: "throttled" });
    expect(await a.health()).toMatchObject({ state: "throttled", retryAt: START + 90_000 + 180_000 });
    clock.now = START + 270_000;
    await b.record(ticketOf(await b.admit("https://example.com/probe")), { ok: true });
    // Its state follows the last answer, which reaches the other process with the counts.
    expect(await reported(a, (h) => h.callsLastHour === 3)).toMatchObject({ state: "ok", retryAt: null, lastSuccessAt: START + 270_000, callsLastHour: 3 });
  });

  it("adds a process's call counts in one write: many calls, then the other process's report has them all", async () => {
    const { a, b } = processes("counts", { activityFlushMs: 60_000 });
    for (let i = 0; i < 50; i++) await a.record(ticketOf(await a.admit(`https://example.com/${i}`)), i % 5 === 0 ? { ok: false, failure: "failed" } : { ok: true });
    // Not yet added: this process's own report has them, the other's not.
    expect(await b.health()).toMatchObject({ callsLastHour: 0, errorsLastHour: 0 });
    expect(await a.health()).toMatchObject({ callsLastHour: 50, errorsLastHour: 10 });
    // Reading added them.
    expect(await b.health()).toMatchObject({ callsLastHour: 50, errorsLastHour: 10 });
  });

  it("keeps the latest answer's time whichever process writes last, and a stopping process shares what it counted", async () => {
    const { clock, a, b } = processes("latest", { activityFlushMs: 60_000 });
    clock.now = START + 10_000;
    await a.record(ticketOf(await a.admit("https://example.com/late")), { ok: true });
    clock.now = START + 5_000;
    // b's answer came earlier, and b shares it after a did: the report keeps a's.
    await b.record(ticketOf(await b.admit("https://example.com/early")), { ok: true });
    await a.health();
    expect(await b.health()).toMatchObject({ lastSuccessAt: START + 10_000, callsLastHour: 2 });
    clock.now = START + 20_000;
    await a.record(ticketOf(await a.admit("https://example.com/last")), { ok: false, failure: "failed" });
    await a.close();
    expect(await b.health()).toMatchObject({ state: "unavailable", callsLastHour: 3, errorsLastHour: 1 });
  });

  it("records only answers that may change the state: a good answer clears rejected credentials, seen by every process", async () => {
    const { a, b, linesA, linesB } = processes("credentials");
    // Good answers to an open network change nothing: nothing is logged (and no script runs).
    for (let i = 0; i < 3; i++) await a.record(ticketOf(await a.admit(`https://example.com/ok${i}`)), { ok: true });
    await a.record(ticketOf(await a.admit("https://example.com/rejected")), { ok: false, failure: "rejected", code: 190 });
    expect(await b.health()).toMatchObject({ state: "credentials_rejected" });
    // Admitted while rejected: b's good answer is recorded, and clears the state for both.
    await b.record(ticketOf(await b.admit("https://example.com/fixed")), { ok: true });
    expect(await a.health()).toMatchObject({ state: expect.not.stringMatching("credentials_rejected") });
    expect([...linesA, ...linesB].map((l) => l.state)).toEqual(["credentials_rejected", "recovered"]);
  });

  it("shares the per-URL and app-wide budgets between processes", async () => {
    const options = { network: "facebook", perUrlPerHour: 3, appPerHour: 5 };
    const a = new NetworkGuard({ kind: "redis", redis: redisA, prefix: `${prefix}:budgets` }, options);
    const b = new NetworkGuard({ kind: "redis", redis: redisB, prefix: `${prefix}:budgets` }, options);
    const url = "https://example.com/shared";
    expect((await a.admit(url)).refusal).toBeNull();
    expect((await b.admit(url)).refusal).toBeNull();
    expect((await a.admit(url)).refusal).toBeNull();
    expect((await b.admit(url)).refusal).toBe("per-URL budget used up");
    expect((await a.admit("https://example.com/other")).refusal).toBeNull();
    expect((await b.admit("https://example.com/third")).refusal).toBeNull();
    expect((await a.admit("https://example.com/fourth")).refusal).toBe("app-wide budget used up");
  });

  it("asks a turn's calls together: the app budget admits as many as it has room for, never for a call another budget refused, and after a pause one of them probes", async () => {
    const admitMany = (guard: NetworkGuard, n: number, tag: string) =>
      Promise.all(Array.from({ length: n }, (_, i) => guard.admit(`https://example.com/${tag}/${i}`)));
    const budget = processes("together-budget", { appPerHour: 5 });
    expect((await admitMany(budget.a, 3, "a")).map((r) => r.refusal)).toEqual([null, null, null]);
    expect((await admitMany(budget.b, 4, "b")).map((r) => r.refusal)).toEqual([null, null, "app-wide budget used up", "app-wide budget used up"]);
    // A call the per-URL budget refuses takes nothing from the app's, even among calls of the same turn.
    const perUrl = processes("together-per-url", { appPerHour: 3, perUrlPerHour: 1 });
    expect((await perUrl.a.admit("https://example.com/once")).refusal).toBeNull();
    const [again, second, third] = await Promise.all(["once", "second", "third"].map((path) => perUrl.b.admit(`https://example.com/${path}`)));
    expect([again!.refusal, second!.refusal, third!.refusal]).toEqual(["per-URL budget used up", null, null]);
    const { clock, a, b } = processes("together-probe");
    await a.record(ticketOf(await a.admit("https://example.com/throttled")), throttled);
    clock.now = START + 30_000;
    const afterPause = await admitMany(b, 4, "after");
    expect(afterPause.filter((r) => r.refusal === null)).toHaveLength(1);
    expect(afterPause.filter((r) => r.refusal === "backing off after throttling: waiting for the answer to the probe call")).toHaveLength(3);
  });

  it("makes every process back off once for the calls in flight when Facebook throttled, then lets one probe through", async () => {
    const { clock, a, b, linesA, linesB } = processes("episode");
    const inFlight: [NetworkGuard, GuardTicket][] = [];
    for (let i = 0; i < 8; i++) {
      inFlight.push([a, ticketOf(await a.admit(`https://example.com/a${i}`))]);
      inFlight.push([b, ticketOf(await b.admit(`https://example.com/b${i}`))]);
    }
    // Other failures are not throttling: no change.
    await b.record(ticketOf(await b.admit("https://example.com/slow")), { ok: false, failure: "timeout" });
    await Promise.all(inFlight.map(([guard, ticket]) => guard.record(ticket, throttled)));
    expect((await a.admit("https://example.com/x")).refusal).toBe("backing off after throttling for 30 s");
    expect((await b.admit("https://example.com/x")).refusal).toBe("backing off after throttling for 30 s");
    const lines = [...linesA, ...linesB];
    expect(lines).toEqual([throttledLine(START + 30_000, 30)]);

    // One probe for both processes; its throttling answer doubles the pause.
    clock.now = START + 30_000;
    const probe = ticketOf(await b.admit("https://example.com/probe"));
    for (const guard of [a, b, a]) {
      expect((await guard.admit("https://example.com/x")).refusal).toBe(
        "backing off after throttling: waiting for the answer to the probe call",
      );
    }
    await b.record(probe, throttled);
    expect((await a.admit("https://example.com/x")).refusal).toBe("backing off after throttling for 60 s");

    // The next probe's good answer opens the network to both; only the process that saw it logs it.
    clock.now = START + 90_000;
    const good = ticketOf(await a.admit("https://example.com/probe"));
    expect((await b.admit("https://example.com/x")).refusal).toMatch(/waiting for the answer to the probe call/);
    await a.record(good, { ok: true });
    expect(linesA.at(-1)).toEqual({ event: "network_state", network: "facebook", state: "recovered" });
    expect(linesB.map((l) => l.state)).not.toContain("recovered");
    expect([...linesA, ...linesB].map((l) => l.state).sort()).toEqual(["recovered", "throttled", "throttled"]);

    // A good answer started over: the next burst pauses 30 s again.
    const open: [NetworkGuard, GuardTicket][] = [];
    for (let i = 0; i < 8; i++) {
      open.push([a, ticketOf(await a.admit(`https://example.com/a${i}`))]);
      open.push([b, ticketOf(await b.admit(`https://example.com/b${i}`))]);
    }
    await Promise.all(open.map(([guard, ticket]) => guard.record(ticket, throttled)));
    expect((await b.admit("https://example.com/x")).refusal).toBe("backing off after throttling for 30 s");
    expect([...linesA, ...linesB].filter((l) => l.state === "throttled").map((l) => l.state === "throttled" && l.pause_seconds).sort())
      .toEqual([30, 30, 60]);
  });

  it("gives the probe slot to another process when the probe never answers", async () => {
    const { clock, a, b } = processes("lost-probe", { probeTimeoutMs: 5_000 });
    await a.record(ticketOf(await a.admit("https://example.com/a")), throttled);
    clock.now = START + 30_000;
    ticketOf(await a.admit("https://example.com/lost")); // its process dies
    clock.now = START + 34_999;
    expect((await b.admit("https://example.com/x")).refusal).toMatch(/waiting for the answer to the probe call/);
    clock.now = START + 35_000;
    const next = ticketOf(await b.admit("https://example.com/next"));
    await b.record(next, { ok: false, failure: "failed" });
    await b.record(ticketOf(await b.admit("https://example.com/again")), { ok: true });
    expect((await a.admit("https://example.com/x")).refusal).toBeNull();
  });

  it("says once, across processes, that the credentials were rejected", async () => {
    const { a, b, linesA, linesB } = processes("credentials");
    const rejected = { ok: false, failure: "rejected", code: 190 } as const;
    const inFlight: [NetworkGuard, GuardTicket][] = [];
    for (let i = 0; i < 8; i++) {
      inFlight.push([a, ticketOf(await a.admit(`https://example.com/a${i}`))]);
      inFlight.push([b, ticketOf(await b.admit(`https://example.com/b${i}`))]);
    }
    await Promise.all(inFlight.map(([guard, ticket]) => guard.record(ticket, rejected)));
    await b.record(ticketOf(await b.admit("https://example.com/again")), rejected);
    expect([...linesA, ...linesB]).toEqual([
      { event: "network_state", network: "facebook", state: "credentials_rejected", code: 190 },
    ]);
    await a.record(ticketOf(await a.admit("https://example.com/fixed")), { ok: true });
    await b.record(ticketOf(await b.admit("https://example.com/fine")), { ok: true });
    expect([...linesA, ...linesB].map((l) => l.state).sort()).toEqual(["credentials_rejected", "recovered"]);
  });
});
