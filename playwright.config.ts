import path from "node:path";
import { defineConfig } from "@playwright/test";
import { E2E_BASE_URL, E2E_ENV, E2E_MAIL_HTTP_PORT, E2E_PORT } from "./e2e/env";
import { SCALE_ENABLED, SCALE_WEB_URL, scaleUnavailable } from "./e2e/scale-env";

const TSX = path.resolve("node_modules", ".bin", "tsx");

// The scale-out layout (e2e/scale.spec.ts) needs PostgreSQL and Redis; say once why it is left out.
if (!SCALE_ENABLED && !process.env.SHARECOUNT_E2E_SCALE_SKIP_SAID) {
  process.env.SHARECOUNT_E2E_SCALE_SKIP_SAID = "1";
  console.warn(`[skipped] e2e/scale.spec.ts (web, API and worker processes on PostgreSQL + Redis): ${scaleUnavailable()} (REQUIRE_SERVICES=1 makes this a failure)`);
}

// Runs on their own E2E_PORT (in parallel) also get their own results folders: Playwright empties its
// output folder when it starts, which would delete another run's traces and screenshots under its feet.
const RESULTS = process.env.E2E_PORT ? `test-results/e2e-${E2E_PORT}` : "test-results/e2e";

/**
 * End-to-end tests in Debian's Chromium against the app as `npm start` runs it (API, worker, dashboard and
 * sandbox upstream in one process), on its own port and database; e2e/scale.spec.ts runs against the
 * scale-out layout (start:web, start:api and start:worker on PostgreSQL + Redis) when those services exist.
 */
export default defineConfig({
  testDir: "e2e",
  outputDir: RESULTS,
  // The slowest specs (axe over the API reference's sixty endpoints, the 10,000-URL bulk job) take 45–51 s on a
  // quiet 2-core machine: twice that, so a loaded machine passes too.
  timeout: 120_000,
  expect: { timeout: 15_000 },
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: [["list"], ["html", { outputFolder: `${RESULTS}-report`, open: "never" }]],
  globalSetup: "./e2e/global-setup.ts",
  use: {
    baseURL: E2E_BASE_URL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  webServer: [
    {
      // The SMTP server the app sends mail through, and its reader for specs.
      command: `"${TSX}" e2e/mail-sink.ts`,
      url: `http://127.0.0.1:${E2E_MAIL_HTTP_PORT}/messages`,
      reuseExistingServer: false,
      gracefulShutdown: { signal: "SIGTERM", timeout: 5_000 },
      stdout: "ignore",
      stderr: "pipe",
    },
    {
      // Empty the suite's own data folder first (globalSetup runs only after the server started), then start
      // the app exactly as the README does; prestart builds the dashboard when its build is missing or stale.
      command: `"${TSX}" e2e/reset-data.ts && npm start`,
      url: `${E2E_BASE_URL}/sign-in`,
      reuseExistingServer: false,
      // A fresh clone builds Next.js here when run directly; `npm test` builds before Playwright starts.
      timeout: 600_000,
      gracefulShutdown: { signal: "SIGTERM", timeout: 15_000 },
      env: E2E_ENV,
      stdout: "pipe",
      stderr: "pipe",
    },
    ...(SCALE_ENABLED
      ? [
          {
            // A fresh PostgreSQL database and Redis prefix, then the three processes (see e2e/scale-stack.ts).
            command: `"${TSX}" e2e/scale-stack.ts`,
            url: `${SCALE_WEB_URL}/readyz`,
            reuseExistingServer: false,
            timeout: 600_000,
            gracefulShutdown: { signal: "SIGTERM" as const, timeout: 15_000 },
            stdout: "ignore" as const,
            stderr: "pipe" as const,
          },
        ]
      : []),
  ],
});
