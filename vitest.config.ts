import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";
import { postgresUnavailable, REQUIRE_SERVICES } from "./test/support/postgres.ts";

const exclude = ["node_modules/**", ".next/**", "e2e/**", "data/**"];

/**
 * Two projects: `sqlite` runs every test; `postgres` runs the API contract suite again, unchanged, with
 * each test service on its own PostgreSQL database (SHARECOUNT_TEST_DB=postgres, see
 * test/support/service.ts). Without a reachable PostgreSQL the `postgres` project is left out with a
 * message, unless REQUIRE_SERVICES=1 (CI), where its global setup fails the run instead.
 */
const unavailable = await postgresUnavailable();
const runPostgres = unavailable === undefined || REQUIRE_SERVICES;
// The config is loaded more than once per run: say it once.
if (!runPostgres && !process.env.SHARECOUNT_POSTGRES_SKIP_SAID) {
  process.env.SHARECOUNT_POSTGRES_SKIP_SAID = "1";
  console.warn(`[skipped] vitest project "postgres" (the API suite on PostgreSQL): ${unavailable} (REQUIRE_SERVICES=1 makes this a failure)`);
}

const postgres: TestProjectInlineConfiguration = {
  extends: true,
  test: {
    name: "postgres",
    include: ["test/api/**/*.test.ts"],
    // crash-resume kills and restarts a child process on a SQLite file that the test opens itself.
    // (Added to the inherited exclude list.)
    exclude: ["test/api/crash-resume.test.ts"],
    env: { SHARECOUNT_TEST_DB: "postgres" },
  },
};

export default defineConfig({
  test: {
    exclude,
    globalSetup: ["test/support/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    projects: [{ extends: true, test: { name: "sqlite", include: ["**/*.test.ts"] } }, ...(runPostgres ? [postgres] : [])],
  },
});
