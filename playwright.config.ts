import { defineConfig } from "@playwright/test";
import { E2E_BASE_URL, E2E_ENV } from "./e2e/env";

/**
 * End-to-end tests in Debian's Chromium against the app as `npm start` runs it (API, worker, dashboard and
 * sandbox upstream in one process), on its own port and database.
 */
export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results/e2e",
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: [["list"], ["html", { outputFolder: "test-results/e2e-report", open: "never" }]],
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
  webServer: {
    command: "npm start",
    url: `${E2E_BASE_URL}/sign-in`,
    reuseExistingServer: false,
    timeout: 300_000,
    env: E2E_ENV,
    stdout: "ignore",
    stderr: "pipe",
  },
});
