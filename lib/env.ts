import { z } from "zod";
import { isAddressOrRange } from "./security/client-ip.ts";
import { isPostgresUrl } from "./db/postgres-url.ts";
import { DEFAULT_DATABASE_URL } from "./db/sqlite-url.ts";
import { SharecountError } from "./errors.ts";
import { MORE_NETWORKS, type MoreNetworkName } from "./counts/more-networks.ts";
import { mailFrom, smtpUrl } from "./mail/mail-env.ts";

// Digits only: coercion would read " " as 0 (a random port), "0x50" as 80 and "1e3" as 1000.
const wholeNumber = (min: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, "must be a whole number")
    .transform(Number)
    .pipe(z.number().int().min(min));
const int = (fallback: number, min = 0) => wholeNumber(min).default(fallback);

const timeZone = z.string().refine(
  (tz) => {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  },
  { message: "must be an IANA time zone such as UTC or Europe/Berlin" },
);

const httpUrl = z.url({ protocol: /^https?$/ }).transform((u) => u.replace(/\/+$/, ""));

/** Where users reach the dashboard: scheme, host and port only (the app is served at the root). */
const publicUrl = z
  .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL, such as https://sharecount.example.com" })
  .refine((u) => {
    // Refinements also run after a failed format check: an unparsable value is reported by that check alone.
    const url = URL.parse(u);
    return !url || (url.pathname === "/" && !url.search && !url.hash && !url.username && !url.password);
  }, "must be an origin only (scheme, host and port), such as https://sharecount.example.com, with no path")
  .transform((u) => new URL(u).origin);

/** Auth.js's own base-URL variables: derived from SHARECOUNT_PUBLIC_URL, so one setting says where the dashboard is. */
export function authUrlFor(publicOrigin: string): string {
  return `${publicOrigin}/api/auth`;
}

const schema = z
  .object({
    PORT: int(3000, 0).refine((p) => p <= 65535, "must be a port number"),
    HOST: z.string().min(1).default("0.0.0.0"),
    // SQLite (the embedded default) or PostgreSQL (scale-out): see lib/db/prisma.ts.
    DATABASE_URL: z
      .string()
      .min(1)
      .refine((url) => url.startsWith("file:") || isPostgresUrl(url), {
        message: "must be a file: URL (SQLite) or a postgres:// or postgresql:// URL (PostgreSQL)",
      })
      .default(DEFAULT_DATABASE_URL),
    SHARECOUNT_NETWORKS: z.enum(["sandbox", "live"]).optional(),
    FACEBOOK_GRAPH_URL: httpUrl.default("https://graph.facebook.com/v24.0"),
    FACEBOOK_ACCESS_TOKEN: z.string().optional(),
    PINTEREST_COUNT_URL: httpUrl.default("https://widgets.pinterest.com/v1/urls/count.json"),
    // API v2's networks beyond Facebook and Pinterest (see README, "Networks"): where each is, its timeout
    // (default NETWORK_TIMEOUT_MS) and its budget.
    SHARECOUNT_V2_NETWORKS: z
      .string()
      .transform((list, ctx) => {
        if (list.trim() === "none") return [];
        const names = [...new Set(list.split(",").map((n) => n.trim().toLowerCase()).filter(Boolean))];
        const unknown = names.filter((n) => !(MORE_NETWORKS as readonly string[]).includes(n));
        if (unknown.length > 0) {
          ctx.addIssue({
            code: "custom",
            message: `must be "none" or a comma-separated list of ${MORE_NETWORKS.join(", ")} (Facebook and Pinterest are always asked); unknown: ${unknown.join(", ")}`,
          });
          return z.NEVER;
        }
        return names as MoreNetworkName[];
      })
      .optional(),
    REDDIT_URL: httpUrl.default("https://www.reddit.com"),
    // Reddit's application-only OAuth: with both set, calls go to REDDIT_OAUTH_URL and the budget is 100 a minute.
    REDDIT_CLIENT_ID: z.string().optional(),
    REDDIT_CLIENT_SECRET: z.string().optional(),
    REDDIT_OAUTH_URL: httpUrl.default("https://oauth.reddit.com"),
    REDDIT_CALLS_PER_MINUTE: wholeNumber(1).optional(),
    REDDIT_TIMEOUT_MS: wholeNumber(50).optional(),
    HACKERNEWS_URL: httpUrl.default("https://hn.algolia.com/api/v1"),
    // Algolia's HN Search allows 10,000 requests an hour per IP address.
    HACKERNEWS_CALLS_PER_HOUR: int(10_000, 1),
    HACKERNEWS_TIMEOUT_MS: wholeNumber(50).optional(),
    BLUESKY_URL: httpUrl.default("https://bsky.social/xrpc"),
    BLUESKY_IDENTIFIER: z.string().optional(),
    BLUESKY_APP_PASSWORD: z.string().optional(),
    BLUESKY_CALLS_PER_HOUR: int(3_000, 1),
    BLUESKY_TIMEOUT_MS: wholeNumber(50).optional(),
    VK_URL: httpUrl.default("https://vk.com"),
    VK_CALLS_PER_HOUR: int(3_600, 1),
    VK_TIMEOUT_MS: wholeNumber(50).optional(),
    OK_URL: httpUrl.default("https://connect.ok.ru"),
    OK_CALLS_PER_HOUR: int(3_600, 1),
    OK_TIMEOUT_MS: wholeNumber(50).optional(),
    TUMBLR_URL: httpUrl.default("https://api.tumblr.com"),
    TUMBLR_CALLS_PER_HOUR: int(1_000, 1),
    TUMBLR_TIMEOUT_MS: wholeNumber(50).optional(),
    QUOTA_TIMEZONE: timeZone.default("UTC"),
    COUNT_CACHE_TTL_SECONDS: int(1200, 1).refine((s) => s <= 3600, "must be at most 3600 (one hour)"),
    COUNT_CACHE_MAX_URLS: int(100_000, 1),
    STALE_MAX_AGE_SECONDS: int(7 * 24 * 3600),
    NETWORK_TIMEOUT_MS: int(4000, 50),
    FACEBOOK_CALLS_PER_URL_PER_HOUR: int(10, 1),
    FACEBOOK_APP_CALLS_PER_HOUR: int(20_000, 1),
    // Pinterest publishes no limit: this keeps the app (and the refresh schedule's share) polite.
    PINTEREST_APP_CALLS_PER_HOUR: int(20_000, 1),
    // Tracked URLs: the share of each network's hourly budget scheduled refreshes may take (0 to 1).
    REFRESH_BUDGET_SHARE: z
      .string()
      .trim()
      .regex(/^(0(\.\d+)?|1(\.0+)?)$/, "must be a number from 0 to 1, such as 0.5")
      .transform(Number)
      .default(0.5),
    // The refresh cadence by age since first tracked: every 60 minutes for 24 hours, daily until day 30, weekly after.
    REFRESH_YOUNG_HOURS: int(24, 1),
    REFRESH_YOUNG_EVERY_MINUTES: int(60, 1),
    REFRESH_MIDDLE_DAYS: int(30, 1),
    REFRESH_MIDDLE_EVERY_HOURS: int(24, 1),
    REFRESH_OLD_EVERY_HOURS: int(168, 1),
    REFRESH_POLL_MS: int(5_000, 100),
    REFRESH_CONCURRENCY: int(16, 1),
    // A worker killed mid-refresh holds its URLs this long before another takes them over.
    REFRESH_LEASE_MS: int(300_000, 1000),
    // Hourly history points are kept this many days; after that, the last point of each day.
    HISTORY_HOURLY_DAYS: int(30, 1),
    // Sitemaps and feeds on loopback and private addresses: for tests and closed networks only.
    SITEMAP_ALLOW_PRIVATE_HOSTS: z.enum(["true", "false"]).default("false").transform((v) => v === "true"),
    // Webhook endpoints on loopback and private addresses: for tests and closed networks only.
    WEBHOOK_ALLOW_PRIVATE_HOSTS: z.enum(["true", "false"]).default("false").transform((v) => v === "true"),
    // Events, with their webhook deliveries and attempts, are removed this many days after they happened.
    EVENT_RETENTION_DAYS: int(30, 1),
    // Audit log events (lib/audit) are removed this many days after they happened.
    AUDIT_LOG_DAYS: int(365, 1),
    // The request log (every API request of an account, for debugging): on by default, kept this many days.
    REQUEST_LOG: z.enum(["on", "off"], { error: "must be on or off" }).default("on"),
    REQUEST_LOG_DAYS: int(30, 1).refine((days) => days <= 3650, "must be at most 3650 (ten years)"),
    // Log lines: JSON on stdout (pretty: for people, with pino-pretty installed), from this level up.
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], { error: "must be one of fatal, error, warn, info, debug, trace, silent" }).default("info"),
    LOG_FORMAT: z.enum(["json", "pretty"], { error: "must be json or pretty" }).default("json"),
    // Who may read /metrics: unset, only this machine's loopback; set, whoever sends `Authorization: Bearer <token>`.
    METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
    BULK_CONCURRENCY: int(64, 1),
    BULK_RETENTION_DAYS: int(7, 1),
    // 10,000 URLs (the dedicated batch limit) of up to 2,048 characters fit.
    BULK_MAX_BODY_BYTES: int(24 * 1024 * 1024, 1024),
    // Scale-out: Redis for the shared count cache, quota counters and the BullMQ bulk queue (see README).
    REDIS_URL: z
      .url({ protocol: /^rediss?$/, error: "must be a redis:// or rediss:// URL" })
      .optional(),
    // Every key this deployment writes starts with it: several deployments (or test runs) can share one Redis.
    REDIS_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9_.-]{1,32}$/, "must be 1 to 32 letters, digits, dots, dashes or underscores")
      .default("sharecount"),
    // A bulk worker that stops answering (killed, frozen) holds its URLs this long before another takes them over.
    BULK_LOCK_MS: int(30_000, 1000),
    // On SIGTERM a process finishes what it holds; past this it exits anyway (1). Below the orchestrator's own grace.
    STOP_DEADLINE_SECONDS: int(14, 1),
    SANDBOX_PORT: int(0, 0),
    SANDBOX_LATENCY_MS: int(20, 0),
    // Dashboard: the server secret (API keys at rest, sessions), and where its server routes reach the API.
    SHARECOUNT_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    SHARECOUNT_API_URL: httpUrl.optional(),
    // The load balancers in front of the dashboard (IPs or CIDRs, comma-separated): their X-Forwarded-For
    // names the client, for the sign-in rate limits. Empty: the socket's address is the client's.
    TRUSTED_PROXIES: z
      .string()
      .default("")
      .transform((list) => list.split(",").map((entry) => entry.trim()).filter(Boolean))
      .refine((entries) => entries.every(isAddressOrRange), "must be IP addresses or CIDR ranges, comma-separated"),
    // Where users reach the dashboard: sign-in providers redirect there, and links the service prints use it.
    SHARECOUNT_PUBLIC_URL: publicUrl.optional(),
    AUTH_URL: z.string().optional(),
    NEXTAUTH_URL: z.string().optional(),
    AUTH_GITHUB_ID: z.string().optional(),
    AUTH_GITHUB_SECRET: z.string().optional(),
    AUTH_GOOGLE_ID: z.string().optional(),
    AUTH_GOOGLE_SECRET: z.string().optional(),
    // Mail (lib/mail): sent through SMTP_URL, or written as .eml files under MAIL_DIR without it.
    SMTP_URL: smtpUrl.optional(),
    MAIL_FROM: mailFrom.optional(),
    MAIL_DIR: z.string().min(1).default("data/mail"),
    PASSWORD_RESET_TTL_MINUTES: int(60, 1).refine((m) => m <= 1440, "must be at most 1440 (a day)"),
    // Default: true with the sandbox networks only, so a live deployment never has a known demo account.
    SHARECOUNT_DEMO: z.enum(["true", "false"]).optional(),
  })
  .transform((env) => {
    // No upstream credentials means the sandbox: `npm start` works out of the box and never fakes live data.
    const networks = env.SHARECOUNT_NETWORKS ?? (env.FACEBOOK_ACCESS_TOKEN ? "live" : "sandbox");
    // Every network that needs no credentials, and Bluesky when its credentials are set (the sandbox's twin
    // takes any).
    const blueskyReady = networks === "sandbox" || Boolean(env.BLUESKY_IDENTIFIER && env.BLUESKY_APP_PASSWORD);
    const v2Networks = env.SHARECOUNT_V2_NETWORKS ?? MORE_NETWORKS.filter((n) => n !== "bluesky" || blueskyReady);
    const demo = env.SHARECOUNT_DEMO ?? (networks === "sandbox" ? "true" : "false");
    return { ...env, SHARECOUNT_NETWORKS: networks, SHARECOUNT_V2_NETWORKS: v2Networks, SHARECOUNT_DEMO: demo };
  })
  .superRefine((env, ctx) => {
    if (env.REDIS_URL && !isPostgresUrl(env.DATABASE_URL)) {
      ctx.addIssue({
        code: "custom",
        path: ["REDIS_URL"],
        message: "needs DATABASE_URL to be PostgreSQL: Redis is for several processes, SQLite for one",
      });
    }
    if (!env.SHARECOUNT_PUBLIC_URL && ((env.AUTH_GITHUB_ID && env.AUTH_GITHUB_SECRET) || (env.AUTH_GOOGLE_ID && env.AUTH_GOOGLE_SECRET))) {
      ctx.addIssue({
        code: "custom",
        path: ["SHARECOUNT_PUBLIC_URL"],
        message:
          "is required with GitHub or Google sign-in: the address users reach the dashboard at (e.g. https://sharecount.example.com); " +
          "the providers send users back to it",
      });
    }
    for (const name of ["AUTH_URL", "NEXTAUTH_URL"] as const) {
      const value = env[name];
      if (value !== undefined && (!env.SHARECOUNT_PUBLIC_URL || value !== authUrlFor(env.SHARECOUNT_PUBLIC_URL))) {
        ctx.addIssue({ code: "custom", path: [name], message: "is set from SHARECOUNT_PUBLIC_URL: remove it and set SHARECOUNT_PUBLIC_URL to the dashboard's address" });
      }
    }
    if (env.SHARECOUNT_NETWORKS === "live" && env.SHARECOUNT_V2_NETWORKS.includes("bluesky") && !(env.BLUESKY_IDENTIFIER && env.BLUESKY_APP_PASSWORD)) {
      ctx.addIssue({
        code: "custom",
        path: ["SHARECOUNT_V2_NETWORKS"],
        message: "names bluesky, which needs BLUESKY_IDENTIFIER and BLUESKY_APP_PASSWORD (an app password from bsky.app's settings)",
      });
    }
    if (Boolean(env.REDDIT_CLIENT_ID) !== Boolean(env.REDDIT_CLIENT_SECRET)) {
      ctx.addIssue({ code: "custom", path: ["REDDIT_CLIENT_SECRET"], message: "REDDIT_CLIENT_ID and REDDIT_CLIENT_SECRET go together: set both or neither" });
    }
    if (env.SHARECOUNT_NETWORKS === "live" && !env.FACEBOOK_ACCESS_TOKEN) {
      ctx.addIssue({
        code: "custom",
        path: ["FACEBOOK_ACCESS_TOKEN"],
        message: "is required when SHARECOUNT_NETWORKS=live (format: <app-id>|<app-secret>)",
      });
    }
  });

export type Env = z.infer<typeof schema>;

/** The configuration is not usable: the message names every bad variable. */
export class EnvError extends SharecountError<"invalid_configuration"> {
  static override readonly kind: string = "EnvError";

  constructor(message: string) {
    super("invalid_configuration", message);
  }
}

/** Reads `./.env` into the environment when it exists; variables already set win. */
export function loadDotEnv(file = ".env"): void {
  try {
    process.loadEnvFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

/** Parses the environment once at start-up; the message names every bad variable. */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  // Empty (or blank) strings are unset: a blank line in .env must not override a default.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v.trim() !== ""));
  const result = schema.safeParse(cleaned);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => `  ${issue.path.join(".") || "environment"}: ${issue.message}`);
  throw new EnvError(`Invalid configuration:\n${lines.join("\n")}`);
}
