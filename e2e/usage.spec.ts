import fs from "node:fs";
import type { Page } from "@playwright/test";
import { REFUSAL_COLORS, SERVED_COLOR } from "../app/dashboard/usage/colors";
import { E2E_BASE_URL } from "./env";
import { admin, api, backdateAccount, createAccount, expect, expectNoPageOverflow, setUsedToday, signIn, test, withDatabase, type E2EAccount } from "./fixtures";

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

/** Today's refused queries as GET /v2/usage reports them (they are written within a second or so). */
async function refusedToday(account: E2EAccount) {
  const { body } = await api(`/v2/usage?from=${day()}`, account.apiKey);
  return (body as { days: { refused: Record<string, number> }[] }).days.at(-1)!.refused;
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
  // Served, refused (over quota, not whitelisted, invalid), quota, share used.
  await expect(today.getByRole("cell")).toHaveText(["3", "0", "0", "0", "100,000", "<1%"]);
  await expect(bodyRows(page)).toHaveCount(30);
  // Newest first: today is what people look for.
  await expect(bodyRows(page).first().locator("time")).toHaveAttribute("datetime", day());

  // The chart is drawn (Recharts, loaded on this page only) and says in words what it shows.
  const chart = page.getByRole("application", { name: "Queries per day, served and refused, and daily quota, last 30 days" });
  await expect(chart).toBeVisible();
  await expect(chart).toHaveAccessibleDescription(`3 queries served and 0 refused; the busiest day was ${longDate(day())} with 3 requests.`);
  await expect(page.locator(".recharts-bar-rectangle")).not.toHaveCount(0);
  await expect(page.locator("figcaption")).toHaveText(/^3 queries served/);

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
  await expectNoPageOverflow(page);
  await page.screenshot({ path: test.info().outputPath("usage-phone.png"), fullPage: true });
});

test("the range presets slice the report, live in the URL and survive reload", async ({ signedIn: page, account }) => {
  backdateAccount(account.email, 120);
  await query(account, 2);
  setQueriesOn(account.email, day(-10), 25);
  await page.goto("/dashboard/usage");
  await expect(rowOf(page, day(-10)).getByRole("cell").first()).toHaveText("25");
  await expect(page.locator("figcaption")).toHaveText(/^27 queries served/);

  await page.getByRole("button", { name: "7 days" }).click();
  await expect(page).toHaveURL(/\/dashboard\/usage\?days=7$/);
  await expect(page.getByRole("button", { name: "7 days" })).toHaveAttribute("aria-pressed", "true");
  await expect(bodyRows(page)).toHaveCount(7);
  await expect(rowOf(page, day(-10))).toHaveCount(0);
  await expect(page.locator("figcaption")).toHaveText(/^2 queries served/);

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

test("exports the range as a CSV file a spreadsheet opens, refused queries included", async ({ signedIn: page, account }) => {
  backdateAccount(account.email, 120);
  await query(account, 4);
  expect((await api("/v1.0/?url=not-a-url", account.apiKey)).status).toBe(400);
  await expect.poll(() => refusedToday(account)).toEqual({ quota: 0, whitelist: 0, invalid: 1 });
  await page.goto("/dashboard/usage?days=7");
  await expect(rowOf(page, day()).getByRole("cell").first()).toHaveText("4");
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()]);
  expect(download.suggestedFilename()).toBe(`sharecount-usage-${day(-6)}-to-${day()}.csv`);
  const lines = fs.readFileSync(await download.path(), "utf8").trim().split("\r\n");
  // The columns the export always had come first, so a sheet built on them still reads it.
  expect(lines[0]).toBe("date,queries,quota,percent_used,refused_quota,refused_whitelist,refused_invalid");
  expect(lines).toHaveLength(8);
  expect(lines[1]).toMatch(new RegExp(`^${day(-6)},0,`));
  expect(lines.at(-1)).toBe(`${day()},4,100000,0.004,0,0,1`);
});

test("a fresh account sees the first request to make, with a place for its key and where to get one, not a chart of zeros", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const account = createAccount("free");
  await signIn(page, account);
  await page.goto("/dashboard/usage?days=7");
  await expect(page.getByText("No queries since your account was created.")).toBeVisible();
  await expect(page.getByRole("table")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Export CSV" })).toHaveCount(0);
  const line = page.getByTestId("first-request");
  const command = (key: string) => `curl "${E2E_BASE_URL}/v1.0/?url=https%3A%2F%2Fexample.com%2F&apikey=${key}"`;
  await expect(line).toHaveText(command("YOUR_API_KEY"));
  await expect(page.getByRole("link", { name: "Create a key" })).toHaveAttribute("href", "/dashboard/keys");
  await page.screenshot({ path: test.info().outputPath("usage-empty.png"), fullPage: true });

  await page.getByRole("button", { name: "Copy" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Copied" })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(command("YOUR_API_KEY"));
  // The line works once the key is in place: the query it makes is answered.
  const url = /curl "(.*)"$/.exec(copied.replace("YOUR_API_KEY", account.apiKey))![1]!;
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

test("shows refused queries by reason beside the served ones: totals, chart, table", async ({ signedIn: page, account }) => {
  backdateAccount(account.email, 120);
  admin("whitelist:set", "--email", account.email, "--domains", "example.com", "--enabled", "true");
  await query(account, 2);
  // Off the enforced whitelist twice, an invalid URL once, then three over a used-up quota.
  for (const path of ["/v1.0/?url=https%3A%2F%2Felsewhere.org%2F", "/v2/counts?url=https%3A%2F%2Felsewhere.org%2Fb", "/v1.1/?url=ftp%3A%2F%2Fexample.com%2F"]) {
    expect((await api(path, account.apiKey)).status).toBeGreaterThanOrEqual(400);
  }
  setUsedToday(account.email, 100_000);
  for (let i = 0; i < 3; i++) expect((await api(`/v1.0/?url=${encodeURIComponent(`https://example.com/over-${i}`)}`, account.apiKey)).status).toBe(401);
  await expect.poll(() => refusedToday(account)).toEqual({ quota: 3, whitelist: 2, invalid: 1 });

  await page.goto("/dashboard/usage?days=7");
  await expect(rowOf(page, day()).getByRole("cell")).toHaveText(["100,000", "3", "2", "1", "100,000", "100%"]);
  const totals = page.getByRole("definition");
  await expect(totals).toHaveText(["100,000", "3", "2", "1"]);
  await expect(page.getByRole("term")).toHaveText(["Served", "Refused: over quota", "Refused: not whitelisted", "Refused: invalid"]);
  await expect(page.locator("figcaption")).toHaveText(
    `100,000 queries served and 6 refused (3 over quota, 2 not whitelisted, 1 invalid); the busiest day was ${longDate(day())} with 100,006 requests.`,
  );
  // Each reason has its own series in the chart, stacked on the served bar.
  for (const name of ["Served", "Refused: over quota", "Refused: not whitelisted", "Refused: invalid", "Daily quota"]) {
    await expect(page.locator(".recharts-legend-item-text").filter({ hasText: name })).toHaveCount(1);
  }
  await expect(page.locator(`.recharts-bar-rectangle path[fill="${REFUSAL_COLORS.quota}"]`)).toHaveCount(1);
  await page.screenshot({ path: test.info().outputPath("usage-refused.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole("application", { name: /^Queries per day/ })).toBeVisible();
  await expectNoPageOverflow(page);
  // The table scrolls sideways inside its own region, which a keyboard can reach.
  const region = page.getByRole("region", { name: /Queries served, refused by reason/ });
  await region.focus();
  await expect(region).toBeFocused();
  await page.screenshot({ path: test.info().outputPath("usage-refused-phone.png"), fullPage: true });
});

test("a custom date range: checked at the field, kept in the URL, survives reload, back and presets", async ({ signedIn: page, account }) => {
  backdateAccount(account.email, 120);
  setQueriesOn(account.email, day(-40), 11);
  setQueriesOn(account.email, day(-35), 5);
  setQueriesOn(account.email, day(-20), 9);
  setQueriesOn(account.email, day(-2), 3);
  await page.goto("/dashboard/usage");
  const form = page.getByRole("form", { name: "Custom range" });
  const from = form.getByLabel("From");
  const to = form.getByLabel("To");
  // The form starts on the days the preset shows.
  await expect(from).toHaveValue(day(-29));
  await expect(to).toHaveValue(day());

  // A start after the end is refused at the end date's field, and nothing is asked for.
  await from.fill(day(-30));
  await to.fill(day(-45));
  await form.getByRole("button", { name: "Show" }).click();
  await expect(to).toHaveAttribute("aria-invalid", "true");
  await expect(to).toHaveAccessibleDescription("The end date must be on or after the start date.");
  await expect(page).toHaveURL(/\/dashboard\/usage$/);
  await from.fill("2020-01-01");
  await to.fill(day());
  await form.getByRole("button", { name: "Show" }).click();
  await expect(from).toHaveAccessibleDescription("A range spans at most 366 days.");

  await from.fill(day(-45));
  await to.fill(day(-30));
  await form.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/usage\\?from=${day(-45)}&to=${day(-30)}$`));
  await expect(bodyRows(page)).toHaveCount(16);
  await expect(page.locator("figcaption")).toHaveText(/^16 queries served/);
  // Two days with queries, none refused: two bars, and no refused segment drawn on them.
  await expect(page.locator(`.recharts-bar-rectangle path[fill="${SERVED_COLOR}"]`)).toHaveCount(2);
  await expect(page.locator(`.recharts-bar-rectangle path:not([fill="${SERVED_COLOR}"])`)).toHaveCount(0);
  await expect(page.getByRole("heading", { name: `${longDate(day(-45))} – ${longDate(day(-30))}` })).toBeVisible();
  for (const preset of ["7 days", "30 days", "90 days"]) await expect(page.getByRole("button", { name: preset })).toHaveAttribute("aria-pressed", "false");
  await page.screenshot({ path: test.info().outputPath("usage-custom-range.png"), fullPage: true });

  await page.reload();
  await expect(bodyRows(page)).toHaveCount(16);
  await expect(from).toHaveValue(day(-45));

  // A preset replaces the custom range in the URL; back brings it back.
  await page.getByRole("button", { name: "7 days" }).click();
  await expect(page).toHaveURL(/\/dashboard\/usage\?days=7$/);
  await expect(bodyRows(page)).toHaveCount(7);
  await expect(from).toHaveValue(day(-6));
  await page.goBack();
  await expect(bodyRows(page)).toHaveCount(16);
  await expect(to).toHaveValue(day(-30));

  // A custom range the API would refuse, typed into the address bar, falls back to the default.
  await page.goto(`/dashboard/usage?from=${day()}&to=${day(-1)}`);
  await expect(page.getByRole("button", { name: "30 days" })).toHaveAttribute("aria-pressed", "true");
  await expect(bodyRows(page)).toHaveCount(30);
});

test("a custom range with nothing in it says so, and one before the account existed too", async ({ signedIn: page, account }) => {
  backdateAccount(account.email, 120);
  await page.goto(`/dashboard/usage?from=${day(-60)}&to=${day(-50)}`);
  await expect(page.getByText(`No queries from ${longDate(day(-60))} to ${longDate(day(-50))}.`)).toBeVisible();
  // A quiet stretch of the past is no reason to offer the first request to make.
  await expect(page.getByTestId("first-request")).toHaveCount(0);
  await page.goto(`/dashboard/usage?from=${day(-300)}&to=${day(-200)}`);
  await expect(page.getByText("No queries: your account did not exist yet in this range.")).toBeVisible();
});
