import "server-only";
import type { Redis } from "ioredis";
import { Accounts } from "../../lib/accounts/accounts.ts";
import { Sessions } from "../../lib/sessions/sessions.ts";
import { TrackingSettings } from "../../lib/accounts/tracking-settings.ts";
import { NetworkSettings } from "../../lib/accounts/network-settings.ts";
import { AlertSettings } from "../../lib/alerts/alert-settings.ts";
import { createPrisma, pingDatabase, type PrismaClient } from "../../lib/db/prisma.ts";
import { parseEnv, type Env } from "../../lib/env.ts";
import { configureLogging } from "../../lib/log/log.ts";
import { connectRedis } from "../../lib/redis/redis.ts";
import { deriveKey, KeyVault, loadServerSecret } from "../../lib/security/secrets.ts";
import { QuotaClock } from "../../lib/quota/clock.ts";
import { openStore } from "../../lib/store/open.ts";
import type { Store } from "../../lib/store/store.ts";
import { mailSettings, type MailSettings } from "../../lib/mail/mail-env.ts";
import { openOutbox } from "../../lib/mail/outbox.ts";
import { Invites } from "../../lib/members/invites.ts";
import { Members } from "../../lib/members/members.ts";
import type { Outbox } from "../../lib/mail/outbox.ts";
import { ApiKeys } from "../../lib/keys/api-keys.ts";
import { DashboardTokens } from "../../lib/keys/dashboard-token.ts";

export interface DashboardContext {
  env: Env;
  prisma: PrismaClient;
  /** The real clock, in the quota time zone: what "today" and expiries are computed from. */
  clock: QuotaClock;
  accounts: Accounts;
  /** The tables the API also uses (bulk jobs), through their owners. */
  store: Store;
  trackingSettings: TrackingSettings;
  networkSettings: NetworkSettings;
  /** What the account is mailed about, and its spike thresholds. */
  alertSettings: AlertSettings;
  /** Signed-in browsers (Auth.js's database sessions). */
  sessions: Sessions;
  /** Resolves while the database answers: the health check. */
  ping: () => Promise<void>;
  /** Auth.js's secret, derived from the server secret. */
  authSecret: string;
  /** Where the dashboard's server routes reach the API. */
  apiUrl: string;
  /** The account's API keys (the keys page). */
  keys: ApiKeys;
  /** Signs the short-lived tokens the dashboard's server calls the API with (it holds no key). */
  tokens: DashboardTokens;
  /** Queues mail in the caller's transaction; a worker sends it (lib/mail). */
  outbox: Outbox;
  /** Where links in mail point (SHARECOUNT_PUBLIC_URL, never a request's Host header). */
  mail: MailSettings;
  /** With REDIS_URL: shared state of the dashboard's processes (rate limits). */
  redis: Redis | null;
  /** Who works in the account, with which role; and the invitations to join it. */
  members: Members;
  invites: Invites;
}

const globalForContext = globalThis as unknown as { sharecountDashboard?: DashboardContext };

/** One context per server process (kept on globalThis so hot reloads and route bundles share it). */
export function dashboard(): DashboardContext {
  if (!globalForContext.sharecountDashboard) {
    const env = parseEnv();
    // Next.js's bundle holds its own copy of the logger: it takes the same settings.
    configureLogging({ level: env.LOG_LEVEL, format: env.LOG_FORMAT });
    const secret = loadServerSecret(env);
    const prisma = createPrisma(env.DATABASE_URL);
    const clock = new QuotaClock(env.QUOTA_TIMEZONE);
    const store = openStore(env.DATABASE_URL);
    const outbox = openOutbox(prisma, secret);
    const mail = mailSettings(env);
    globalForContext.sharecountDashboard = {
      env,
      prisma,
      clock,
      accounts: new Accounts(prisma, clock, store),
      store,
      sessions: new Sessions(prisma, clock),
      trackingSettings: new TrackingSettings(prisma),
      networkSettings: new NetworkSettings(prisma),
      alertSettings: new AlertSettings(prisma),
      ping: () => pingDatabase(prisma),
      authSecret: deriveKey(secret, "auth.js").toString("hex"),
      apiUrl: env.SHARECOUNT_API_URL ?? `http://127.0.0.1:${env.PORT}`,
      keys: new ApiKeys(prisma, new KeyVault(secret)),
      tokens: new DashboardTokens(secret),
      redis: env.REDIS_URL ? connectRedis(env.REDIS_URL) : null,
      outbox,
      mail,
      members: new Members(prisma),
      invites: new Invites(prisma, outbox, mail.linkOrigin),
    };
  }
  return globalForContext.sharecountDashboard;
}
