import fs from "node:fs";
import type { Page } from "@playwright/test";
import { E2E_BASE_URL } from "./env";
import { api, backdateAccount, createAccount, expect, signIn, test, withDatabase, type E2EAccount } from "./fixtures";

/** A quota day `offset` days from today; the e2e server's QUOTA_TIMEZONE is UTC. */
function day(offset = 0): string {
  const date = new Date();
  date.setUTCDate(date.getUTCDate() + offset);
  return date.toISOString().slice(0, 10);
}

/** "Nov 21, 2026", as the page writes a quota day. */
const longDate = (date: string) =>
  new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" }).format(Date.parse(`${date}T00:00:00Z`));

/** Makes `count` real queries with the account's key, as a client library would. */
async function query(account: E2EAccount, count: number) {
  for (let i = 0; i < count; i++) {
    const url = `https://example.com/e2e-usage-${Date.now().toString(36)}-${i}`;
    const { status } = await api(`/v1.0/?url=${encodeURIComponent(url)}`, account.apiKey);
    expect(status).toBe(200);
  }
}

/** Records queries on an earlier day straight in the database (history cannot be made through the API). */
function setQueriesOn(email: string, date: string, queries: number) {
  withDatabase((db) => {
    const { id } = db.prepare<[string], { id: string }>("SELECT id FROM account WHERE email = ?").get(email)!;
    db.prepare(
      "INSERT INTO daily_usage (account_id, day, queries) VALUES (?, ?, ?) ON CONFLICT (account_id, day) DO UPDATE SET queries = excluded.queries",
    ).run(id, date, queries);
  });
}

/** The table row of one quota day (the date is the row's header cell). */
const rowOf = (page: Page, date: string) => page.getByRole("row").filter({ has: page.locator(`time[datetime="${date}"]`) });
const bodyRows = (page: Page) => page.getByRole("table").locator("tbody tr");

test("shows today's real queries in the chart and the table, 30 days by default", async ({ signedIn: page, account }) => {
  backdateAccount(account.email, 120);
  await query(account, 3);
  await page.goto("/dashboard/usage");
  await expect(page.getByRole("heading", { name: "Usage", level: 1 })).toBeVisible();
  await expect(page.getByRole("button", { name: "30 days" })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByRole("button", { name: "7 days" })).toHaveAttribute("aria-pressed", "false");

  const today = rowOf(page, day());
  await expect(today.getByRole("cell")).toHaveText(["3", "100,000", "<1%"]);
  await expect(bodyRows(page)).toHaveCount(30);
  // Newest first: today is what people look for.
  await expect(bodyRows(page).first().locator("time")).toHaveAttribute("datetime", day());

  // The chart is drawn (Recharts, loaded on this page only) and says in words what it shows.
  const chart = page.getByRole("application", { name: "Queries per day and daily quota, last 30 days" });
  await expect(chart).toBeVisible();
  await expect(chart).toHaveAccessibleDescription(`3 queries in total; the busiest day was ${longDate(day())} with 3.`);
  await expect(page.locator(".recharts-bar-rectangle")).not.toHaveCount(0);
  await expect(page.locator("figcaption")).toHaveText(/^3 queries in total/);

  await page.screenshot({ path: test.info().outputPath("usage.png"), fullPage: true });

  // Under a 100,000 quota three queries are invisible; scaled to queries, the axis tops out at the busiest day.
  const yTick = (text: string) => chart.getByText(text, { exact: true });
  await expect(yTick("100K")).toBeVisible();
  await page.getByLabel("Scale to queries").check();
  await expect(yTick("100K")).toHaveCount(0);
  await expect(yTick("3")).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("usage-scaled-to-queries.png") });

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(chart).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: test.info().outputPath("usage-phone.png"), fullPage: true });
});

test("the range presets slice the report, live in the URL and survive reload", async ({ signedIn: page, account }) => {
  backdateAccount(account.email, 120);
  await query(account, 2);
  setQueriesOn(account.email, day(-10), 25);
  await page.goto("/dashboard/usage");
  await expect(rowOf(page, day(-10)).getByRole("cell").first()).toHaveText("25");
  await expect(page.locator("figcaption")).toHaveText(/^27 queries in total/);

  await page.getByRole("button", { name: "7 days" }).click();
  await expect(page).toHaveURL(/\/dashboard\/usage\?days=7$/);
  await expect(page.getByRole("button", { name: "7 days" })).toHaveAttribute("aria-pressed", "true");
  await expect(bodyRows(page)).toHaveCount(7);
  await expect(rowOf(page, day(-10))).toHaveCount(0);
  await expect(page.locator("figcaption")).toHaveText(/^2 queries in total/);

  await page.reload();
  await expect(page.getByRole("button", { name: "7 days" })).toHaveAttribute("aria-pressed", "true");
  await expect(bodyRows(page)).toHaveCount(7);

  // Keyboard only: Tab to the 90-day preset and press it.
  await page.getByRole("button", { name: "30 days" }).focus();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "90 days" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\?days=90$/);
  await expect(bodyRows(page)).toHaveCount(90);

  // Back goes to the previous range; an unknown range falls back to the default.
  await page.goBack();
  await expect(page.getByRole("button", { name: "7 days" })).toHaveAttribute("aria-pressed", "true");
  await page.goto("/dashboard/usage?days=12");
  await expect(page.getByRole("button", { name: "30 days" })).toHaveAttribute("aria-pressed", "true");
});

test("exports the range as a CSV file a spreadsheet opens", async ({ signedIn: page, account }) => {
  backdateAccount(account.email, 120);
  await query(account, 4);
  await page.goto("/dashboard/usage?days=7");
  await expect(rowOf(page, day()).getByRole("cell").first()).toHaveText("4");
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()]);
  expect(download.suggestedFilename()).toBe(`sharecount-usage-${day(-6)}-to-${day()}.csv`);
  const lines = fs.readFileSync(await download.path(), "utf8").trim().split("\r\n");
  expect(lines[0]).toBe("date,queries,quota,percent_used");
  expect(lines).toHaveLength(8);
  expect(lines[1]).toMatch(new RegExp(`^${day(-6)},0,`));
  expect(lines.at(-1)).toBe(`${day()},4,100000,0.004`);
});

test("a fresh account sees the first request to make, with its key revealed only on request, not a chart of zeros", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const account = createAccount("free");
  await signIn(page, account);
  await page.goto("/dashboard/usage?days=7");
  await expect(page.getByText("No queries since your account was created.")).toBeVisible();
  await expect(page.getByRole("table")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Export CSV" })).toHaveCount(0);
  const line = page.getByTestId("first-request");
  const command = (key: string) => `curl "${E2E_BASE_URL}/v1.0/?url=https%3A%2F%2Fexample.com%2F&apikey=${key}"`;
  await expect(line).toHaveText(command(`${"•".repeat(12)}${account.apiKey.slice(-4)}`));
  await expect(line).not.toContainText(account.apiKey);
  await page.screenshot({ path: test.info().outputPath("usage-empty.png"), fullPage: true });

  await page.getByRole("button", { name: "Reveal key" }).click();
  await expect(line).toHaveText(command(account.apiKey));
  await page.getByRole("button", { name: "Hide key" }).click();
  await expect(line).not.toContainText(account.apiKey);
  await page.getByRole("button", { name: "Copy" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Copied" })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(command(account.apiKey));
  // The line works as it is: the query it makes is answered.
  const url = /curl "(.*)"$/.exec(copied)![1]!;
  expect((await fetch(url)).status).toBe(200);
  await page.reload();
  await expect(page.getByRole("table")).toBeVisible();
});

test("a young account's report starts on its first day, not with days before it existed", async ({ page }) => {
  const account = createAccount("free");
  backdateAccount(account.email, 10);
  setQueriesOn(account.email, day(-3), 7);
  await signIn(page, account);
  await page.goto("/dashboard/usage?days=90");
  await expect(bodyRows(page)).toHaveCount(11);
  await expect(bodyRows(page).last().locator("time")).toHaveAttribute("datetime", day(-10));
  await expect(page.locator("figcaption")).toContainText(`Your account's history starts on ${longDate(day(-10))}.`);
  await expect(page.locator(".recharts-bar-rectangle")).not.toHaveCount(0);
});

test("an API failure shows an error with Retry that recovers", async ({ signedIn: page, account }) => {
  await query(account, 1);
  let fail = true;
  await page.route((url) => url.pathname === "/api/dashboard/usage", (route) =>
    fail
      ? route.fulfill({ status: 502, json: { error: "unreachable", message: "The share-count API cannot be reached right now." } })
      : route.continue(),
  );
  await page.goto("/dashboard/usage");
  const alert = page.getByRole("alert").filter({ hasText: "cannot be reached" });
  await expect(alert).toBeVisible();
  fail = false;
  await alert.getByRole("button", { name: "Retry" }).click();
  await expect(rowOf(page, day()).getByRole("cell").first()).toHaveText("1");
});
