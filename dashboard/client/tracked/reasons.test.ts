import { describe, expect, it } from "vitest";
import { NETWORK_REASONS } from "../../../lib/v2/reasons.ts";
import { reasonMeaning, reasonPhrase } from "./reasons.ts";

const now = Date.parse("2025-03-10T13:00:00Z");
const clock = { locale: "en-GB", timeZone: "UTC" };

describe("reasonPhrase", () => {
  it("says the reason and when the network is tried again, by the reader's clock", () => {
    expect(reasonPhrase("budget", "2025-03-10T14:05:00Z", now, clock)).toBe("Budget exhausted — tried again at 14:05");
    expect(reasonPhrase("throttled", "2025-03-10T14:05:00Z", now, { locale: "en-GB", timeZone: "Europe/Berlin" })).toBe("Throttled — tried again at 15:05");
  });

  it("names the weekday when the time is not today where the reader is", () => {
    expect(reasonPhrase("throttled", "2025-03-11T09:30:00Z", now, clock)).toBe("Throttled — tried again at Tue 09:30");
    // 23:30 UTC is already Tuesday in Berlin.
    expect(reasonPhrase("throttled", "2025-03-10T23:30:00Z", now, { locale: "en-GB", timeZone: "Europe/Berlin" })).toBe("Throttled — tried again at Tue 00:30");
  });

  it("says shortly once the time has passed, and no time where none is known", () => {
    expect(reasonPhrase("upstream_error", "2025-03-10T12:59:00Z", now, clock)).toBe("Upstream error — tried again shortly");
    expect(reasonPhrase("credentials_rejected", null, now, clock)).toBe("Credentials rejected");
  });
});

describe("reasonMeaning", () => {
  it("is a sentence for every reason", () => {
    for (const reason of NETWORK_REASONS) expect(reasonMeaning(reason)).toMatch(/^[A-Z][^.]+\.$/);
    expect(reasonMeaning("not_configured")).toBe("This service is not set up to ask the network.");
  });
});
