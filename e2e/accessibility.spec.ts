import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { E2E_BASE_URL } from "./env";
import { admin, createAccount, type E2EAccount, expect, finishedJob, test } from "./fixtures";
import { dashboardPages } from "./routes";

/**
 * axe on every page, in light and in dark: no violation of any rule axe runs by default (WCAG 2.x A and AA,
 * contrast among them, and its best practices), the pages with data in them as well as the empty ones.
 */

async function expectNoViolations(page: Page, path: string) {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    // The page as its user reads it: loaded, under its heading (a busy machine can be past networkidle before the data).
    await expect(page.locator("[data-loading]")).toHaveCount(0);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    const { violations } = await new AxeBuilder({ page }).analyze();
    const found = violations.map((v) => `${v.id} (${v.nodes.length}): ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")}`);
    expect(found, `${path} in ${colorScheme}`).toEqual([]);
  }
}

async function post(account: E2EAccount, path: string, body: unknown) {
  const response = await fetch(`${E2E_BASE_URL}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${account.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

// The pages a mailed link opens, with a token that is no one's: each says so on its own page.
for (const path of ["/", "/sign-in", "/sign-up", "/forgot-password", "/reset-password", "/sign-in?reset=done", "/verify-email?token=e2e-no-such-token", "/change-email?token=e2e-no-such-token", "/account-deleted"]) {
  test(`axe: ${path} signed out`, async ({ page }) => {
    await expectNoViolations(page, path);
  });
}

test("axe: a working reset link's form", async ({ page }) => {
  const { email } = createAccount("free");
  await expectNoViolations(page, String(admin("account:reset-link", "--email", email).link));
});

test("axe: the forgot page's answer", async ({ page }) => {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await page.goto("/forgot-password");
    await page.getByLabel("Email").fill(`e2e-axe-${Date.now().toString(36)}@example.com`);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(violations.map((v) => v.id), `the forgot page's answer in ${colorScheme}`).toEqual([]);
  }
});

for (const path of dashboardPages().filter((p) => p !== "/dashboard/urls/view")) {
  test(`axe: ${path}`, async ({ signedIn: page }) => {
    // The API reference is every operation's page in one: axe takes about 50 s over it on a quiet machine.
    test.slow(path === "/dashboard/api");
    await expectNoViolations(page, path);
  });
}

test("axe: the URL list and a URL's view, with tracked URLs", async ({ signedIn: page, account }) => {
  const urls = Array.from({ length: 3 }, (_, i) => `https://example.com/axe-${Date.now()}-${i}`);
  await post(account, "/v2/tracked", { urls });
  await expectNoViolations(page, "/dashboard/urls");
  await expectNoViolations(page, `/dashboard/urls/view?url=${encodeURIComponent(urls[0]!)}`);
});

test("axe: a finished bulk job's page", async ({ signedIn: page, account }) => {
  const urls = Array.from({ length: 3 }, (_, i) => `https://example.com/axe-bulk-${Date.now()}-${i}`);
  const { bulk_id: bulkId } = await post(account, "/v2/bulk", { urls });
  await finishedJob(account.apiKey, String(bulkId), "v2");
  await expectNoViolations(page, `/dashboard/bulk/${bulkId}`);
});
