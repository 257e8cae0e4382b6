import { describe, expect, it } from "vitest";
import type { GuardTicket } from "./backoff.ts";
import { NetworkGuard, type Admission } from "./guard.ts";

/*
 * Calls the guard did not let through (a budget was spent, or the network asked us to wait) are counted as
 * skipped, by the minute, for the health report. Time is the injected clock's.
 */

const START = Date.parse("2030-03-04T05:06:07Z");
const throttled = { ok: false, failure: "throttled", code: 4 } as const;

function ticketOf(admission: Admission): GuardTicket {
  if (admission.refusal !== null) throw new Error(`refused: ${admission.refusal}`);
  return admission.ticket;
}

describe("NetworkGuard's skipped calls", () => {
  it("counts the calls it refused as skipped, for an hour, apart from calls and errors", async () => {
    const clock = { now: START };
    const guard = new NetworkGuard({ kind: "memory" }, { network: "facebook", perUrlPerHour: 1, now: () => clock.now, log: () => {} });
    await guard.record(ticketOf(await guard.admit("https://example.com/a")), { ok: true });
    expect((await guard.admit("https://example.com/a")).refusal).toBe("per-URL budget used up");
    await guard.record(ticketOf(await guard.admit("https://example.com/b")), throttled);
    expect((await guard.admit("https://example.com/c")).refusal).toMatch(/^backing off/);
    expect(await guard.health()).toMatchObject({ callsLastHour: 2, errorsLastHour: 1, skippedLastHour: 2 });
    clock.now = START + 59 * 60_000;
    expect((await guard.health()).skippedLastHour).toBe(2);
    clock.now = START + 60 * 60_000;
    expect((await guard.health()).skippedLastHour).toBe(0);
  });
});
