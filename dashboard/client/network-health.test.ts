import { describe, expect, it } from "vitest";
import type { NetworkHealth, NetworksView } from "./answers.ts";
import { describeHealth, downNetworks, incidents } from "./network-health.ts";

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);

const entry = (network: NetworkHealth["network"], state: NetworkHealth["state"], extra: Partial<NetworkHealth> = {}): NetworkHealth => ({
  network,
  name: network === "hackernews" ? "Hacker News" : network[0]!.toUpperCase() + network.slice(1),
  enabled: state !== "disabled",
  state,
  retry_at: null,
  last_success_at: null,
  errors_last_hour: 0,
  calls_last_hour: 0,
  skipped_last_hour: 0,
  budget: { per_hour: 600, used_last_hour: 0, refresh_per_hour: 300, refresh_used_last_hour: 0 },
  ...extra,
});

const view: NetworksView = {
  networks: [
    entry("facebook", "ok"),
    entry("pinterest", "unavailable"),
    entry("reddit", "throttled", { retry_at: new Date(NOW + 5 * 60_000).toISOString() }),
    entry("hackernews", "ok"),
    entry("bluesky", "credentials_rejected"),
    entry("vk", "ok"),
    entry("ok", "ok"),
    entry("tumblr", "disabled"),
  ],
  chosen: ["facebook", "pinterest", "reddit"],
  shown: ["facebook", "pinterest", "reddit"],
};

describe("a network's health in plain words", () => {
  it("says when refreshes of a network whose refresh share is spent go on, and that lookups do not wait", () => {
    const spent = entry("reddit", "budget_exhausted", { retry_at: new Date(NOW + 20 * 60_000).toISOString() });
    expect(describeHealth(spent, NOW)).toMatch(/refreshed again in 20 min.*Lookups still get fresh counts/);
  });

  it("says when a paused network is asked again", () => {
    expect(describeHealth(view.networks[2]!, NOW)).toMatch(/asked again in 5 min/);
    expect(describeHealth(entry("reddit", "throttled", { retry_at: new Date(NOW - 1000).toISOString() }), NOW)).toMatch(/asked again any moment now/);
  });

  it("names the network that refuses credentials or fails, and says what the counts show meanwhile", () => {
    expect(describeHealth(view.networks[4]!, NOW)).toMatch(/^Bluesky refuses this service's credentials/);
    expect(describeHealth(view.networks[1]!, NOW)).toMatch(/last known values, or "not reported"/);
    expect(describeHealth(view.networks[7]!, NOW)).toBe("Not asked by this service.");
  });
});

describe("incidents and banners", () => {
  it("are throttled or credentials-refused networks, for the overview's incident line", () => {
    expect(incidents(view).map((n) => n.network)).toEqual(["reddit", "bluesky"]);
  });

  it("are the networks a page relies on that give no fresh counts", () => {
    expect(downNetworks(view).map((n) => n.network)).toEqual(["pinterest", "reddit"]);
    expect(downNetworks(view, ["facebook", "tumblr"])).toEqual([]);
    expect(downNetworks(view, ["bluesky"]).map((n) => n.network)).toEqual(["bluesky"]);
  });
});
