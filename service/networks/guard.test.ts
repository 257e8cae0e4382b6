import fs from "node:fs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { freshDatabase } from "../../test/support/service.ts";
import { throttledLine } from "../../test/support/network-state.ts";
import { memoryCountCache } from "../counts/cache.ts";
import { CountService } from "../counts/count-service.ts";
import { memoryNetworkCache } from "../counts/network-cache.ts";
import type { SandboxKnobs, SandboxStats } from "../sandbox/control.ts";
import { startSandbox, type Sandbox } from "../sandbox/sandbox.ts";
import { openStore } from "../../lib/store/open.ts";
import type { Store } from "../../lib/store/store.ts";
import { createFacebookAdapter } from "./facebook.ts";
import type { GuardTicket } from "./backoff.ts";
import { NetworkGuard, type Admission, type NetworkStateLine } from "./guard.ts";
import { createPinterestAdapter } from "./pinterest.ts";

/*
 * One throttling episode is one backoff step: the answers to calls already in flight when the network
 * throttled do not extend the pause again; after the pause one probe call goes first; every change of a
 * network's state is one log line. Time is the injected clock's.
 */

const START = Date.parse("2030-03-04T05:06:07Z");
const BURST = 16;
const throttled = { ok: false, failure: "throttled", code: 4, detail: "Graph error 4 (HTTP 403)" } as const;

function ticketOf(admission: Admission): GuardTicket {
  if (admission.refusal !== null) throw new Error(`refused: ${admission.refusal}`);
  return admission.ticket;
}

function memoryGuard(options: { probeTimeoutMs?: number } = {}) {
  const clock = { now: START };
  const lines: NetworkStateLine[] = [];
  const guard = new NetworkGuard({ kind: "memory" }, { network: "facebook", now: () => clock.now, log: (l) => lines.push(l), ...options });
  return { guard, clock, lines };
}

describe("NetworkGuard in memory", () => {
  it("counts the throttled answers to calls already in flight as one step, then lets one probe through", async () => {
    const { guard, clock, lines } = memoryGuard();
    const inFlight = [];
    for (let i = 0; i < BURST; i++) inFlight.push(ticketOf(await guard.admit(`https://example.com/${i}`)));
    await Promise.all(inFlight.map((ticket) => guard.record(ticket, throttled)));
    expect((await guard.admit("https://example.com/x")).refusal).toBe("backing off after throttling for 30 s");
    expect(lines).toEqual([
      throttledLine(START + 30_000, 30, "Graph error 4 (HTTP 403)"),
    ]);

    clock.now = START + 29_999;
    expect((await guard.admit("https://example.com/x")).refusal).toBe("backing off after throttling for 1 s");
    clock.now = START + 30_000;
    const probe = ticketOf(await guard.admit("https://example.com/probe"));
    for (let i = 0; i < BURST; i++) {
      expect((await guard.admit(`https://example.com/${i}`)).refusal).toBe(
        "backing off after throttling: waiting for the answer to the probe call",
      );
    }
    await guard.record(probe, throttled);
    expect((await guard.admit("https://example.com/x")).refusal).toBe("backing off after throttling for 60 s");
    expect(lines.map((l) => l.state === "throttled" && l.pause_seconds)).toEqual([30, 60]);

    clock.now = START + 90_000;
    const secondProbe = ticketOf(await guard.admit("https://example.com/probe"));
    expect((await guard.admit("https://example.com/x")).refusal).toMatch(/waiting for the answer to the probe call/);
    await guard.record(secondProbe, { ok: true });
    expect(lines.at(-1)).toEqual({ event: "network_state", network: "facebook", state: "recovered" });
    const open = [];
    for (let i = 0; i < BURST; i++) open.push(ticketOf(await guard.admit(`https://example.com/${i}`)));

    // A good answer started over: the next throttling is 30 s again, however many calls it caught.
    await Promise.all(open.map((ticket) => guard.record(ticket, throttled)));
    expect((await guard.admit("https://example.com/x")).refusal).toBe("backing off after throttling for 30 s");
    expect(lines.map((l) => l.state)).toEqual(["throttled", "throttled", "recovered", "throttled"]);
  });

  it("ignores the good answers to calls made before the network throttled", async () => {
    const { guard, clock, lines } = memoryGuard();
    const early = ticketOf(await guard.admit("https://example.com/early"));
    const first = ticketOf(await guard.admit("https://example.com/first"));
    await guard.record(first, throttled);
    await guard.record(early, { ok: true });
    expect((await guard.admit("https://example.com/x")).refusal).toBe("backing off after throttling for 30 s");
    clock.now = START + 30_000;
    await guard.record(ticketOf(await guard.admit("https://example.com/probe")), throttled);
    expect((await guard.admit("https://example.com/x")).refusal).toBe("backing off after throttling for 60 s");
    expect(lines.map((l) => l.state)).toEqual(["throttled", "throttled"]);
  });

  it("lets another call probe when the probe failed otherwise, or never answered", async () => {
    const { guard, clock } = memoryGuard({ probeTimeoutMs: 5_000 });
    await guard.record(ticketOf(await guard.admit("https://example.com/a")), throttled);
    clock.now = START + 30_000;
    const timedOut = ticketOf(await guard.admit("https://example.com/probe"));
    await guard.record(timedOut, { ok: false, failure: "timeout" });
    ticketOf(await guard.admit("https://example.com/lost")); // never reports back
    clock.now = START + 34_999;
    expect((await guard.admit("https://example.com/x")).refusal).toMatch(/waiting for the answer to the probe call/);
    clock.now = START + 35_000;
    const next = ticketOf(await guard.admit("https://example.com/next"));
    await guard.record(next, { ok: true });
    expect((await guard.admit("https://example.com/x")).refusal).toBeNull();
  });

  it("says once that the credentials were rejected, and once that they work again", async () => {
    const { guard, lines } = memoryGuard();
    const rejected = { ok: false, failure: "rejected", code: 190, detail: "Graph error 190 (HTTP 400)" } as const;
    const burst = [];
    for (let i = 0; i < BURST; i++) burst.push(ticketOf(await guard.admit(`https://example.com/${i}`)));
    await Promise.all(burst.map((ticket) => guard.record(ticket, rejected)));
    // Still rejected: no new line. Calls are not refused for it.
    await guard.record(ticketOf(await guard.admit("https://example.com/again")), rejected);
    await guard.record(ticketOf(await guard.admit("https://example.com/other")), { ok: false, failure: "failed" });
    expect(lines).toEqual([
      { event: "network_state", network: "facebook", state: "credentials_rejected", code: 190, detail: "Graph error 190 (HTTP 400)" },
    ]);
    await guard.record(ticketOf(await guard.admit("https://example.com/fixed")), { ok: true });
    await guard.record(ticketOf(await guard.admit("https://example.com/fine")), { ok: true });
    expect(lines.map((l) => l.state)).toEqual(["credentials_rejected", "recovered"]);
  });

  it("keeps the budgets, and gives a probe slot a refused call took to the next call", async () => {
    const clock = { now: START };
    const guard = new NetworkGuard({ kind: "memory" }, { network: "facebook", perUrlPerHour: 1, now: () => clock.now, log: () => {} });
    ticketOf(await guard.admit("https://example.com/used"));
    expect((await guard.admit("https://example.com/used")).refusal).toBe("per-URL budget used up");
    await guard.record(ticketOf(await guard.admit("https://example.com/a")), throttled);
    clock.now = START + 30_000;
    expect((await guard.admit("https://example.com/used")).refusal).toBe("per-URL budget used up");
    const probe = ticketOf(await guard.admit("https://example.com/b"));
    expect(probe.probe).toBeGreaterThan(0);
  });
});

/** The same through the count service, against the sandbox upstream, as the API and bulk workers use it. */
describe("Retry-After, per-minute budgets and health", () => {
  const tooMany = (retryAfterMs?: number) => ({ ok: false, failure: "throttled", detail: "HTTP 429", retryAfterMs }) as const;

  it("pauses as long as the network's Retry-After says (up to an hour), and says so in its health", async () => {
    const { guard, clock, lines } = memoryGuard();
    await guard.record(ticketOf(await guard.admit("https://example.com/a")), tooMany(120_000));
    expect(lines).toEqual([{ event: "network_state", network: "facebook", state: "throttled", until: new Date(START + 120_000).toISOString(), pause_seconds: 120, detail: "HTTP 429" }]);
    expect(await guard.health()).toMatchObject({ state: "throttled", retryAt: START + 120_000, errorsLastHour: 1, callsLastHour: 1 });
    clock.now = START + 120_000;
    await guard.record(ticketOf(await guard.admit("https://example.com/probe")), tooMany(86_400_000));
    expect(lines.at(-1)).toMatchObject({ state: "throttled", until: new Date(START + 120_000 + 3_600_000).toISOString(), pause_seconds: 3600 });
    clock.now = START + 120_000 + 3_600_000;
    await guard.record(ticketOf(await guard.admit("https://example.com/probe")), { ok: true });
    expect(await guard.health()).toMatchObject({ state: "ok", retryAt: null, lastSuccessAt: clock.now });
  });

  it("backs off at least 30 s after a bare 429, even when the network last asked for a second", async () => {
    const { guard, clock, lines } = memoryGuard();
    await guard.record(ticketOf(await guard.admit("https://example.com/a")), tooMany(1000));
    clock.now = START + 1000;
    await guard.record(ticketOf(await guard.admit("https://example.com/probe")), tooMany());
    expect(lines.map((l) => ("pause_seconds" in l ? l.pause_seconds : null))).toEqual([1, 30]);
  });

  it("says unavailable after a failed answer, credentials_rejected after a refusal, and ok after a good answer", async () => {
    const { guard } = memoryGuard();
    expect(await guard.health()).toMatchObject({ state: "ok", lastSuccessAt: null, errorsLastHour: 0, budgetPerHour: null });
    await guard.record(ticketOf(await guard.admit("https://example.com/a")), { ok: false, failure: "timeout" });
    expect((await guard.health()).state).toBe("unavailable");
    await guard.record(ticketOf(await guard.admit("https://example.com/b")), { ok: false, failure: "unreported" });
    expect(await guard.health()).toMatchObject({ state: "ok", errorsLastHour: 1, callsLastHour: 2 });
    await guard.record(ticketOf(await guard.admit("https://example.com/c")), { ok: false, failure: "rejected" });
    expect((await guard.health()).state).toBe("credentials_rejected");
    await guard.record(ticketOf(await guard.admit("https://example.com/d")), { ok: true });
    expect((await guard.health()).state).toBe("ok");
  });

  it("keeps a per-minute budget, reported per hour, and says throttled until it opens again", async () => {
    const guard = new NetworkGuard({ kind: "memory" }, { network: "reddit", appPerMinute: 3, refreshShare: 0.5 });
    for (let i = 0; i < 3; i++) expect((await guard.admit(`https://example.com/${i}`)).refusal).toBeNull();
    expect((await guard.admit("https://example.com/4")).refusal).toBe("app-wide budget for this minute used up");
    const health = await guard.health();
    expect(health).toMatchObject({ state: "throttled", budgetPerHour: 180 });
    expect(health.retryAt! - Date.now()).toBeLessThanOrEqual(60_000);
    // The refresh share is 90 an hour, taken at most a minute's worth (2) a minute.
    expect(await guard.refreshesLeft()).toBe(2);
  });

  it("spends no budget on calls refused while it backs off, and gives back the app budget a per-URL refusal took", async () => {
    const clock = { now: START };
    const guard = new NetworkGuard({ kind: "memory" }, { network: "facebook", perUrlPerHour: 1, appPerHour: 3, now: () => clock.now, log: () => {} });
    await guard.record(ticketOf(await guard.admit("https://example.com/a")), throttled);
    for (const path of ["b", "c", "d"]) expect((await guard.admit(`https://example.com/${path}`)).refusal).toBe("backing off after throttling for 30 s");
    clock.now += 30_000;
    await guard.record(ticketOf(await guard.admit("https://example.com/b")), { ok: true });
    expect((await guard.admit("https://example.com/a")).refusal).toBe("per-URL budget used up");
    expect((await guard.admit("https://example.com/c")).refusal).toBeNull();
    expect((await guard.admit("https://example.com/d")).refusal).toBe("app-wide budget used up");
  });

  it("spreads the refresh share over the hour, gives back what another budget refused, and says budget_exhausted", async () => {
    // 60 refreshes an hour, one a minute; Facebook-like, one call per URL an hour.
    const guard = new NetworkGuard({ kind: "memory" }, { network: "facebook", appPerHour: 120, perUrlPerHour: 1, refreshShare: 0.5 });
    expect((await guard.admit("https://example.com/a")).refusal).toBeNull();
    // The per-URL budget refuses this refresh: the minute's refresh is not spent on it.
    expect((await guard.admit("https://example.com/a", "refresh")).refusal).toBe("per-URL budget used up");
    expect(await guard.refreshesLeft()).toBe(1);
    expect((await guard.admit("https://example.com/b", "refresh")).refusal).toBeNull();
    expect((await guard.admit("https://example.com/c", "refresh")).refusal).toBe("refresh share of the budget used up");
    const health = await guard.health();
    expect(health).toMatchObject({ state: "budget_exhausted", refreshPerHour: 60, refreshUsedLastHour: 1 });
    expect(health.retryAt! - Date.now()).toBeLessThanOrEqual(60_000);
    // Live queries still get the rest.
    expect((await guard.admit("https://example.com/c")).refusal).toBeNull();
  });
});

describe("the count service with a throttling Facebook", () => {
  let sandbox: Sandbox;
  let database: { url: string; dir: string };
  let store: Store;
  let seq = 0;

  beforeAll(async () => {
    sandbox = await startSandbox();
    database = freshDatabase();
    store = openStore(database.url);
  });
  afterAll(async () => {
    await store.close();
    await sandbox.close();
    fs.rmSync(database.dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await fetch(`${sandbox.origin}/__sandbox/reset`, { method: "POST" });
  });

  const knobs = (body: Partial<{ [N in keyof SandboxKnobs]: Partial<SandboxKnobs[N]> }>) =>
    fetch(`${sandbox.origin}/__sandbox/knobs`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const facebookCalls = async () => ((await (await fetch(`${sandbox.origin}/__sandbox/stats`)).json()) as SandboxStats).facebook.calls;

  function service() {
    const clock = { now: START };
    const lines: NetworkStateLine[] = [];
    const now = () => clock.now;
    const guard = new NetworkGuard({ kind: "memory" }, { network: "facebook", now, log: (l) => lines.push(l) });
    const counts = new CountService({
      knownCounts: store.counts,
      cache: memoryCountCache(1000),
      networkCache: memoryNetworkCache(1000),
      defaultTtlSeconds: 600,
      staleMaxAgeSeconds: 3600,
      now,
      networks: {
        Facebook: {
          adapter: createFacebookAdapter({ graphUrl: sandbox.facebookGraphUrl, accessToken: "sandbox|sandbox", timeoutMs: 2000 }),
          guard,
        },
        Pinterest: {
          adapter: createPinterestAdapter({ countUrl: sandbox.pinterestCountUrl, timeoutMs: 2000 }),
          guard: new NetworkGuard({ kind: "memory" }, { network: "pinterest", now, log: (l) => lines.push(l) }),
        },
      },
    });
    /** `n` lookups of URLs nobody asked for yet, all at once, as a bulk job's workers make them. */
    const burst = (n: number) =>
      Promise.all(Array.from({ length: n }, () => counts.lookup(`https://example.com/burst-${++seq}`, 0)));
    return { clock, lines, burst };
  }

  it("pauses 30 s for a burst of throttled calls, probes once, and logs each change once", async () => {
    const { clock, lines, burst } = service();
    await knobs({ facebook: { mode: "throttle" } });
    const throttledBurst = await burst(BURST);
    expect(throttledBurst.every((answer) => answer.counts.Facebook === null)).toBe(true);
    expect(await facebookCalls()).toBe(BURST);
    expect(lines).toEqual([
      throttledLine(START + 30_000, 30, "Graph error 4 (HTTP 403): (#4) Application request limit reached"),
    ]);

    // Facebook recovered: it is asked again once the 30 s are over, first by one call alone.
    await knobs({ facebook: { mode: "ok" } });
    clock.now = START + 29_000;
    await burst(4);
    expect(await facebookCalls()).toBe(BURST);
    clock.now = START + 30_000;
    const probed = await burst(BURST);
    expect(await facebookCalls()).toBe(BURST + 1);
    expect(probed.filter((answer) => answer.counts.Facebook !== null)).toHaveLength(1);
    expect(lines.map((l) => l.state)).toEqual(["throttled", "recovered"]);
    const open = await burst(BURST);
    expect(open.every((answer) => answer.counts.Facebook !== null)).toBe(true);
    expect(await facebookCalls()).toBe(2 * BURST + 1);

    // The next episode starts over at 30 s.
    await knobs({ facebook: { mode: "throttle-613" } });
    await burst(BURST);
    expect(lines.map((l) => l.state === "throttled" && [l.pause_seconds, l.code])).toEqual([[30, 4], false, [30, 613]]);
  });

  it("logs once that Facebook rejected the access token, and once that it answers again", async () => {
    const { lines, burst } = service();
    await knobs({ facebook: { mode: "expired-token" } });
    await burst(BURST);
    await burst(2);
    expect(await facebookCalls()).toBe(BURST + 2);
    expect(lines).toEqual([
      {
        event: "network_state",
        network: "facebook",
        state: "credentials_rejected",
        code: 190,
        detail: "Graph error 190 (HTTP 400): Error validating access token: Session has expired.",
      },
    ]);
    await knobs({ facebook: { mode: "ok" } });
    await burst(BURST);
    expect(lines.map((l) => l.state)).toEqual(["credentials_rejected", "recovered"]);
  });
});
