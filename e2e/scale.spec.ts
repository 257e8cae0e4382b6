import { execFileSync } from "node:child_process";
import path from "node:path";
import { expect, signIn, test } from "./fixtures";
import { SCALE_API_URL, SCALE_ENABLED, SCALE_ENV, SCALE_WEB_URL } from "./scale-env";

/*
 * The scale-out layout end to end: the dashboard (`npm run start:web`) signs in against PostgreSQL,
 * calls the API process (`start:api`) with the account's key, and a bulk job is counted by the worker
 * process (`start:worker`) through BullMQ.
 */

test.skip(!SCALE_ENABLED, "PostgreSQL or Redis is not reachable (REQUIRE_SERVICES=1 makes this a failure)");
test.use({ baseURL: SCALE_WEB_URL });

const TSX = path.resolve("node_modules", ".bin", "tsx");

function createAccount(plan: string) {
  const email = `scale-${process.pid}-${Date.now().toString(36)}@example.com`;
  const password = `pw-${Math.random().toString(36).slice(2)}-long`;
  const out = execFileSync(TSX, ["service/admin/cli.ts", "account:create", "--email", email, "--plan", plan, "--password", password], {
    env: { ...process.env, ...SCALE_ENV },
    encoding: "utf8",
  });
  return { email, password, apiKey: String(JSON.parse(out.trim().split("\n").at(-1)!).apikey) };
}

test("web, API and worker as separate processes: sign in, look up a URL, run a bulk job", async ({ page }) => {
  const account = createAccount("business");
  await signIn(page, account);
  await expect(page.getByTestId("plan-name")).toHaveText("business");
  await expect(page.getByTestId("service-status")).toHaveText("Up");

  // A lookup from the dashboard is a query to the API process, counted in the shared quota.
  const url = `https://example.com/e2e-scale-${Date.now().toString(36)}`;
  await page.getByLabel("URL").fill(url);
  await page.getByLabel("API v1.0 — Facebook and Pinterest").check();
  await page.getByRole("button", { name: "Look up" }).click();
  await expect(page.getByTestId("lookup-cache")).toContainText("Cache: MISS");
  await expect(page.getByTestId("quota-used")).toHaveText("1");
  const quota = await (await fetch(`${SCALE_API_URL}/v1.0/quota?apikey=${account.apiKey}`)).json();
  expect(quota).toMatchObject({ quota_used_today: 1, plan: "business" });

  // A bulk job: stored by the API, counted by the worker, followed by the dashboard.
  const urls = Array.from({ length: 25 }, (_, i) => `https://example.com/e2e-scale-bulk-${i}`);
  await page.goto("/dashboard/bulk");
  await page.getByLabel("Or paste URLs, one per line").fill(urls.join("\n"));
  await page.getByRole("button", { name: "Start job with 25 URLs" }).click();
  await expect(page).toHaveURL(/\/dashboard\/bulk\/[A-Za-z0-9_-]+$/);
  await expect(page.getByTestId("bulk-progress-text")).toHaveText("25 of 25 URLs counted");
  await expect(page.getByRole("heading", { name: "Results (25)" })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("scale-bulk.png"), fullPage: true });
});
