import path from "node:path";
import { Agent, setGlobalDispatcher } from "undici";

// The specs' own fetch calls open a connection each. A pooled connection left idle past the server's keep-alive
// window (65 s) can be closed by the server just as a spec reuses it ("other side closed"), and a loaded
// machine's late timers make that likely; the browser and the server's own clients are not affected.
setGlobalDispatcher(new Agent({ pipelining: 0 }));

/** The e2e server's own port and database, away from ./data/sharecount.db. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3950);
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
export const E2E_SANDBOX_URL = `http://127.0.0.1:${E2E_PORT + 9}`;
/** The SMTP server the app sends through, and where specs read what it received (e2e/mail-sink.ts). */
export const E2E_SMTP_PORT = E2E_PORT + 7;
export const E2E_MAIL_HTTP_PORT = E2E_PORT + 8;
export const E2E_DATA_DIR = path.resolve("data", `e2e-${E2E_PORT}`);
export const E2E_ENV: Record<string, string> = {
  PORT: String(E2E_PORT),
  HOST: "127.0.0.1",
  DATABASE_URL: `file:${path.join(E2E_DATA_DIR, "e2e.db")}`,
  SHARECOUNT_NETWORKS: "sandbox",
  SANDBOX_LATENCY_MS: "30",
  // A known port, so that specs can turn the sandbox's knobs (the networks spec throttles a network).
  SANDBOX_PORT: String(E2E_PORT + 9),
  // The networks' real budgets (Reddit: 10 calls a minute) are used up by the bulk spec's 10,000-URL job, after
  // which a network is "not reported"; specs that assert a network's numbers need it answering whatever ran before.
  // Facebook's and Pinterest's too: their refresh share (a sixtieth of it a minute) would be spent by the URL
  // list spec's hundreds of tracked URLs, and a URL tracked meanwhile would miss their counts.
  FACEBOOK_APP_CALLS_PER_HOUR: "1000000",
  PINTEREST_APP_CALLS_PER_HOUR: "1000000",
  REDDIT_CALLS_PER_MINUTE: "1000000",
  HACKERNEWS_CALLS_PER_HOUR: "1000000",
  BLUESKY_CALLS_PER_HOUR: "1000000",
  VK_CALLS_PER_HOUR: "1000000",
  OK_CALLS_PER_HOUR: "1000000",
  TUMBLR_CALLS_PER_HOUR: "1000000",
  SHARECOUNT_DEMO: "false",
  QUOTA_TIMEZONE: "UTC",
  // Tests that need a client address of their own (rate limits per address) send X-Forwarded-For.
  TRUSTED_PROXIES: "127.0.0.1",
  // The URLs spec imports a sitemap it serves on loopback; tracked URLs are refreshed within a second.
  SITEMAP_ALLOW_PRIVATE_HOSTS: "true",
  // The alerts spec receives webhooks on loopback.
  WEBHOOK_ALLOW_PRIVATE_HOSTS: "true",
  REFRESH_POLL_MS: "500",
  // The server's warnings and errors show beside a failed spec (its stdout is piped); the rest would drown them.
  LOG_LEVEL: "warn",
  SMTP_URL: `smtp://127.0.0.1:${E2E_PORT + 7}`,
  SHARECOUNT_PUBLIC_URL: `http://127.0.0.1:${E2E_PORT}`,
};
