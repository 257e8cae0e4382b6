import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";
import { postgresUnavailable, REQUIRE_SERVICES } from "./test/support/postgres.ts";
import { redisUnavailable } from "./test/support/redis.ts";

const exclude = ["node_modules/**", ".next/**", "e2e/**", "data/**"];

/**
 * Three projects: `sqlite` runs every test but the multi-process ones; `scale` runs the API contract suite
 * again, unchanged, on the scale-out stack (each test service on its own PostgreSQL database and its own
 * Redis key prefix: SHARECOUNT_TEST_STACK=scale, see test/support/service.ts), and the multi-process
 * tests in test/scale/. Without a reachable PostgreSQL and Redis the
 * `scale` project is left out with a message, unless REQUIRE_SERVICES=1 (CI), where its global setup
 * fails the run instead. `shifted-clock` runs the unit tests again under a system clock years away, so a
 * test that passes only on some dates fails (see test/support/shifted-clock.ts).
 */
const unavailable = (await Promise.all([postgresUnavailable(), redisUnavailable()])).filter(Boolean).join("; ") || undefined;
const runScale = unavailable === undefined || REQUIRE_SERVICES;
// The config is loaded more than once per run: say it once.
if (!runScale && !process.env.SHARECOUNT_SCALE_SKIP_SAID) {
  process.env.SHARECOUNT_SCALE_SKIP_SAID = "1";
  console.warn(`[skipped] vitest project "scale" (the API suite on PostgreSQL + Redis): ${unavailable} (REQUIRE_SERVICES=1 makes this a failure)`);
}

const scale: TestProjectInlineConfiguration = {
  extends: true,
  test: {
    name: "scale",
    include: ["test/api/**/*.test.ts", "test/v2/**/*.test.ts", "test/scale/**/*.test.ts"],
    // crash-resume kills and restarts a child process on a SQLite file that the test opens itself; its
    // scale-out counterpart is test/scale/.
    exclude: ["test/api/crash-resume.test.ts"],
    env: { SHARECOUNT_TEST_STACK: "scale" },
  },
};

/**
 * The unit tests again, with the system clock moved years away (test/support/shifted-clock.ts): code that reads
 * the real clock where it should take its caller's fails them, and so does a test bound to one calendar day.
 */
const shiftedClock: TestProjectInlineConfiguration = {
  extends: true,
  test: {
    name: "shifted-clock",
    include: ["lib/**/*.test.ts", "dashboard/**/*.test.ts", "service/**/*.test.ts", "scripts/**/*.test.ts"],
    setupFiles: ["test/support/shifted-clock.ts"],
  },
};

export default defineConfig({
  test: {
    exclude,
    globalSetup: ["test/support/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // The ten slowest tests end every run, so drift is seen (test/support/slowest-tests.ts).
    reporters: ["default", "./test/support/slowest-tests.ts"],
    projects: [
      { extends: true, test: { name: "sqlite", include: ["**/*.test.ts"], exclude: ["test/scale/**"] } },
      shiftedClock,
      ...(runScale ? [scale] : []),
    ],
  },
});
