import type { Env } from "../../lib/env.ts";
import type { MoreNetworkName } from "../../lib/counts/more-networks.ts";
import type { Network } from "../counts/network-counter.ts";
import type { Sandbox } from "../sandbox/sandbox.ts";
import { createBlueskyAdapter } from "./bluesky.ts";
import type { GuardOptions, NetworkGuard } from "./guard.ts";
import { createHackerNewsAdapter } from "./hackernews.ts";
import { createOkAdapter } from "./ok.ts";
import { createRedditAdapter } from "./reddit.ts";
import { createTumblrAdapter } from "./tumblr.ts";
import { createVkAdapter } from "./vk.ts";

type Budget = Pick<GuardOptions, "appPerHour" | "appPerMinute">;

/** A network's adapter and budget, as configured (the guard is made by the caller, which knows where state lives). */
interface Configured<K extends MoreNetworkName> {
  adapter: Network<K>["adapter"];
  budget: Budget;
  timeoutMs: number;
}

/**
 * The networks beyond Facebook and Pinterest that SHARECOUNT_V2_NETWORKS enables, each pointed at the
 * sandbox's twin when there is a sandbox, else at the real network.
 */
export function moreNetworks(
  env: Env,
  sandbox: Sandbox | null,
  guardOf: (network: MoreNetworkName, budget: Budget, timeoutMs: number) => NetworkGuard,
): { [K in MoreNetworkName]?: Network<K> } {
  const timeout = (ms: number | undefined) => ms ?? env.NETWORK_TIMEOUT_MS;
  const redditOAuth = Boolean(env.REDDIT_CLIENT_ID && env.REDDIT_CLIENT_SECRET);
  const make: { [K in MoreNetworkName]: () => Configured<K> } = {
    reddit: () => {
      const timeoutMs = timeout(env.REDDIT_TIMEOUT_MS);
      return {
        adapter: createRedditAdapter({
          baseUrl: sandbox?.redditUrl ?? env.REDDIT_URL,
          timeoutMs,
          oauth: redditOAuth
            ? { clientId: env.REDDIT_CLIENT_ID!, clientSecret: env.REDDIT_CLIENT_SECRET!, apiUrl: sandbox?.redditOAuthUrl ?? env.REDDIT_OAUTH_URL }
            : undefined,
        }),
        // Reddit allows 10 unauthenticated calls a minute, 100 with OAuth.
        budget: { appPerMinute: env.REDDIT_CALLS_PER_MINUTE ?? (redditOAuth ? 100 : 10) },
        timeoutMs,
      };
    },
    hackernews: () => {
      const timeoutMs = timeout(env.HACKERNEWS_TIMEOUT_MS);
      return {
        adapter: createHackerNewsAdapter({ baseUrl: sandbox?.hackerNewsUrl ?? env.HACKERNEWS_URL, timeoutMs }),
        budget: { appPerHour: env.HACKERNEWS_CALLS_PER_HOUR },
        timeoutMs,
      };
    },
    bluesky: () => {
      const timeoutMs = timeout(env.BLUESKY_TIMEOUT_MS);
      return {
        adapter: createBlueskyAdapter({
          baseUrl: sandbox?.blueskyUrl ?? env.BLUESKY_URL,
          timeoutMs,
          identifier: env.BLUESKY_IDENTIFIER ?? "sandbox.bsky.social",
          password: env.BLUESKY_APP_PASSWORD ?? "sandbox",
        }),
        budget: { appPerHour: env.BLUESKY_CALLS_PER_HOUR },
        timeoutMs,
      };
    },
    vk: () => {
      const timeoutMs = timeout(env.VK_TIMEOUT_MS);
      return { adapter: createVkAdapter({ baseUrl: sandbox?.vkUrl ?? env.VK_URL, timeoutMs }), budget: { appPerHour: env.VK_CALLS_PER_HOUR }, timeoutMs };
    },
    ok: () => {
      const timeoutMs = timeout(env.OK_TIMEOUT_MS);
      return { adapter: createOkAdapter({ baseUrl: sandbox?.okUrl ?? env.OK_URL, timeoutMs }), budget: { appPerHour: env.OK_CALLS_PER_HOUR }, timeoutMs };
    },
    tumblr: () => {
      const timeoutMs = timeout(env.TUMBLR_TIMEOUT_MS);
      return {
        adapter: createTumblrAdapter({ baseUrl: sandbox?.tumblrUrl ?? env.TUMBLR_URL, timeoutMs }),
        budget: { appPerHour: env.TUMBLR_CALLS_PER_HOUR },
        timeoutMs,
      };
    },
  };
  const networks: { [K in MoreNetworkName]?: Network<K> } = {};
  for (const name of env.SHARECOUNT_V2_NETWORKS) {
    const { adapter, budget, timeoutMs } = make[name]();
    (networks as Record<string, Network<MoreNetworkName>>)[name] = { adapter, guard: guardOf(name, budget, timeoutMs) } as Network<MoreNetworkName>;
  }
  return networks;
}
