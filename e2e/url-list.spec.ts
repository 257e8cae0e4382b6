import fs from "node:fs";
import Papa from "papaparse";
import type { Page } from "@playwright/test";
import { api, createAccount, type E2EAccount, expect, expectNoPageOverflow, setUsedToday, signIn, test, trackByApi } from "./fixtures";

/**
 * The URL list's state in the page's address (back, forward, a shared link, bad values), rows selected for
 * export and removal, international domains shown in Unicode and stored in ASCII, bare hosts accepted as the
 * API accepts them, and Lookup's Track button.
 */

const uniqueHost = (name: string) => `${name}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}.example.com`;

async function trackedUrls(account: E2EAccount): Promise<string[]> {
  const body = (await api("/v2/tracked?limit=1000", account.apiKey)).body as { data: { url: string }[] };
  return body.data.map((row) => row.url).sort();
}

const table = (page: Page) => page.getByTestId("tracked-table");
const range = (page: Page) => page.getByTestId("list-range");
const search = (page: Page) => page.getByLabel("Search tracked URLs");
const historyLength = (page: Page) => page.evaluate(() => window.history.length);
const sortedBy = (page: Page, heading: string) => page.getByRole("columnheader", { name: new RegExp(heading) });

test("sort, filter, search and page live in the address: back, forward, a shared link and bad values", async ({ signedIn: page, account }) => {
  const host = uniqueHost("pages");
  const urls = Array.from({ length: 105 }, (_, i) => `https://${host}/post-${i}`);
  await trackByApi(account, urls);

  await page.goto("/dashboard/urls");
  await expect(range(page)).toHaveText("1–100 of 105 URLs");
  await expect(page.getByTestId("list-page")).toHaveText("Page 1 of 2");
  await page.getByRole("link", { name: "Next ›" }).click();
  await expect(page).toHaveURL(/\/dashboard\/urls\?page=2$/);
  await expect(range(page)).toHaveText("101–105 of 105 URLs");
  // The oldest first on the last page of newest-first: post-0 was added first.
  await expect(table(page).getByRole("link", { name: urls[0]!, exact: true })).toBeVisible();

  await sortedBy(page, "Total").getByRole("button").click();
  await expect(page).toHaveURL(/\?sort=total$/);
  await expect(sortedBy(page, "Total")).toHaveAttribute("aria-sort", "descending");
  await expect(range(page)).toHaveText("1–100 of 105 URLs");

  await page.getByTestId("tracked-filter").selectOption("growing");
  await expect(page).toHaveURL(/\?sort=total&filter=growing$/);
  await expect(page.getByText("No tracked URL grew this week.")).toBeVisible();

  // Typing replaces the address (no history entry per keystroke), and starts the search at its first page.
  const entries = await historyLength(page);
  await page.getByTestId("tracked-filter").selectOption("");
  await search(page).fill("post-7");
  await expect(page).toHaveURL(/\?sort=total&q=post-7$/);
  await expect(range(page)).toHaveText("1–11 of 11 URLs containing “post-7”");
  expect(await historyLength(page)).toBe(entries + 1);

  // Back: the filter (its entry was replaced by the search's), then the sort, then page 2.
  await page.goBack();
  await expect(page).toHaveURL(/\?sort=total&filter=growing$/);
  await expect(page.getByTestId("tracked-filter")).toHaveValue("growing");
  await expect(search(page)).toHaveValue("");
  await page.goBack();
  await expect(page).toHaveURL(/\?sort=total$/);
  await expect(page.getByTestId("tracked-filter")).toHaveValue("");
  await expect(range(page)).toHaveText("1–100 of 105 URLs");
  await page.goBack();
  await expect(range(page)).toHaveText("101–105 of 105 URLs");
  await expect(sortedBy(page, "Added")).toHaveAttribute("aria-sort", "descending");
  await page.goForward();
  await expect(sortedBy(page, "Total")).toHaveAttribute("aria-sort", "descending");
  await page.goForward();
  await page.goForward();
  await expect(search(page)).toHaveValue("post-7");
  await expect(range(page)).toHaveText("1–11 of 11 URLs containing “post-7”");

  // A shared link opens the same list, in a fresh tab.
  const shared = await page.context().newPage();
  await shared.goto("/dashboard/urls?sort=added&order=asc&page=2");
  await expect(sortedBy(shared, "Added")).toHaveAttribute("aria-sort", "ascending");
  await expect(range(shared)).toHaveText("101–105 of 105 URLs");
  await expect(table(shared).getByRole("link", { name: urls[104]!, exact: true })).toBeVisible();

  // Bad values are their defaults; a page past the end says so.
  await shared.goto("/dashboard/urls?sort=name&order=up&filter=all&page=-3");
  await expect(sortedBy(shared, "Added")).toHaveAttribute("aria-sort", "descending");
  await expect(range(shared)).toHaveText("1–100 of 105 URLs");
  await shared.goto("/dashboard/urls?page=7");
  await expect(shared.getByText("Page 7 is past the end of the list.")).toBeVisible();
  await shared.getByRole("link", { name: "Go to the first page" }).click();
  await expect(range(shared)).toHaveText("1–100 of 105 URLs");
});

test("rows selected across the page are exported as CSV and removed after confirming", async ({ signedIn: page, account }) => {
  const host = uniqueHost("select");
  const urls = ["one", "two", "three", "four", "five"].map((name) => `https://${host}/${name}`);
  await trackByApi(account, urls);
  await page.goto("/dashboard/urls");
  await expect(range(page)).toHaveText("1–5 of 5 URLs");

  // Every row on the page, by the heading's box; again to clear.
  const all = page.getByRole("checkbox", { name: "Select every URL on this page" });
  await all.check();
  await expect(page.getByTestId("selection-bar")).toContainText("5 URLs selected");
  await all.uncheck();
  await expect(page.getByTestId("selection-bar")).toHaveCount(0);

  // By keyboard: Space on a row's box; the heading's box then shows "some".
  await page.getByRole("checkbox", { name: `Select ${urls[0]}` }).focus();
  await page.keyboard.press("Space");
  await page.getByRole("checkbox", { name: `Select ${urls[1]}` }).check();
  await expect(page.getByTestId("selection-bar")).toContainText("2 URLs selected");
  expect(await all.evaluate((box: HTMLInputElement) => box.indeterminate)).toBe(true);

  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export CSV" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^sharecount-tracked-urls-\d{4}-\d{2}-\d{2}\.csv$/);
  const rows = Papa.parse<Record<string, string>>(fs.readFileSync((await file.path())!, "utf8").replace(/^\uFEFF/, "").trim(), { header: true }).data;
  expect(rows.map((row) => row.url).sort()).toEqual([urls[0], urls[1]].sort());
  expect(Object.keys(rows[0]!)).toEqual(expect.arrayContaining(["url", "added_at", "total", "facebook_total_count"]));

  await page.getByRole("button", { name: "Remove…" }).click();
  const dialog = page.getByRole("dialog", { name: "Stop tracking 2 URLs?" });
  await expect(dialog).toContainText(urls[0]!);
  await expect(dialog).toContainText(urls[1]!);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(range(page)).toHaveText("1–5 of 5 URLs");
  await page.getByRole("button", { name: "Remove…" }).click();
  await page.screenshot({ path: test.info().outputPath("url-list-remove-selected.png"), fullPage: true });
  await dialog.getByRole("button", { name: "Stop tracking 2 URLs" }).click();
  await expect(page.getByText("Stopped tracking 2 URLs.")).toBeVisible();
  await expect(page.getByTestId("selection-bar")).toHaveCount(0);
  await expect(range(page)).toHaveText("1–3 of 3 URLs");
  expect(await trackedUrls(account)).toEqual(urls.slice(2).sort());
});

test("a URL pasted without its scheme, on an international domain, is tracked in ASCII and shown in Unicode", async ({ signedIn: page, account }) => {
  const label = `bücher-${Date.now().toString(36)}`;
  const unicode = `https://${label}.example.com/katalog`;
  const ascii = `https://${new URL(unicode).hostname}/katalog`;
  const plainHost = uniqueHost("bare");
  await page.goto("/dashboard/urls");
  await page.getByLabel("URLs, one per line").fill(`${label}.example.com/katalog\n${plainHost}/page\nhttps://${plainHost}/page`);
  await expect(page.getByText("2 valid URLs, 1 repeated (once is enough).")).toBeVisible();
  await page.getByRole("button", { name: "Track 2 URLs" }).click();
  await expect(page.getByTestId("add-added")).toHaveText("2");

  expect(ascii).toMatch(/^https:\/\/xn--/);
  expect(await trackedUrls(account)).toEqual([ascii, `https://${plainHost}/page`].sort());
  const link = table(page).getByRole("link", { name: unicode, exact: true });
  await expect(link).toBeVisible();
  await expect(link).toHaveAttribute("title", `${unicode}\n${ascii}`);
  await page.screenshot({ path: test.info().outputPath("url-list-unicode.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoPageOverflow(page);
  await page.screenshot({ path: test.info().outputPath("url-list-unicode-phone.png"), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  await link.click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(unicode);
  await expect(page).toHaveTitle(new RegExp(`${label}\\.example\\.com/katalog`));
});

test("Lookup's Track adds the URL as the paste form would, and links to it once tracked", async ({ signedIn: page, account }) => {
  const host = uniqueHost("lookup-track");
  await page.goto("/dashboard");
  await page.getByLabel("URL", { exact: true }).fill(`${host}/article`);
  await page.getByRole("button", { name: "Look up" }).click();
  await expect(page.getByRole("heading", { name: `Counts for https://${host}/article` })).toBeVisible();
  const before = ((await api("/v1.0/quota", account.apiKey)).body as { quota_used_today: number }).quota_used_today;
  await expect(page.getByTestId("add-cost")).toContainText("slots free");
  await page.getByRole("button", { name: "Track this URL" }).click();
  const tracked = page.getByTestId("lookup-tracked");
  await expect(tracked).toContainText("Tracked");
  await expect(tracked).toContainText("its first count comes within a minute");
  expect(await trackedUrls(account)).toEqual([`https://${host}/article`]);
  expect(((await api("/v1.0/quota", account.apiKey)).body as { quota_used_today: number }).quota_used_today).toBe(before + 1);
  await page.screenshot({ path: test.info().outputPath("lookup-tracked.png"), fullPage: true });

  // Looked up again, it shows as tracked at once, with no button.
  await page.getByLabel("URL", { exact: true }).fill(`https://${host}/article`);
  await page.getByRole("button", { name: "Look up" }).click();
  await expect(page.getByTestId("lookup-tracked")).toBeVisible();
  await expect(page.getByRole("button", { name: "Track this URL" })).toHaveCount(0);
  await page.getByTestId("lookup-tracked").getByRole("link", { name: "See its history" }).click();
  await expect(page).toHaveURL(/\/dashboard\/urls\/view\?url=/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(`https://${host}/article`);
});

test("Lookup's Track obeys the plan's slots, and an invalid URL is refused before any query", async ({ page }) => {
  const account = createAccount("free");
  const host = uniqueHost("full");
  await trackByApi(account, Array.from({ length: 100 }, (_, i) => `https://${host}/${i}`));
  await signIn(page, account);
  await page.getByLabel("URL", { exact: true }).fill(`${host}/one-more`);
  await page.getByRole("button", { name: "Look up" }).click();
  await expect(page.getByTestId("add-cost")).toContainText("No new URL can be added: your plan's slots are all used.");
  await page.getByRole("button", { name: "Track this URL" }).click();
  await expect(page.getByTestId("lookup-track").getByRole("status")).toHaveText(/Not added: your plan's tracked-URL slots are all used\./);
  expect(await trackedUrls(account)).toHaveLength(100);

  const used = ((await api("/v1.0/quota", account.apiKey)).body as { quota_used_today: number }).quota_used_today;
  await page.getByLabel("URL", { exact: true }).fill("someone@example.org");
  await page.getByRole("button", { name: "Look up" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Not a valid URL" })).toContainText("the URL names a user (is it an email address?)");
  await expect(page.getByLabel("URL", { exact: true })).toHaveAttribute("aria-invalid", "true");
  expect(((await api("/v1.0/quota", account.apiKey)).body as { quota_used_today: number }).quota_used_today).toBe(used);
});

test("more URLs than fit today: the form asks to add the first that fit, and adds those", async ({ page }) => {
  const account = createAccount("free");
  // The free plan's 500 queries a day, 495 of them used: 5 new URLs fit.
  setUsedToday(account.email, 495);
  await signIn(page, account);
  await page.goto("/dashboard/urls");
  const host = uniqueHost("fits");
  const urls = Array.from({ length: 8 }, (_, i) => `https://${host}/post-${i}`);
  await page.getByLabel("URLs, one per line").fill(urls.join("\n"));
  await expect(page.getByTestId("add-question")).toHaveText("5 of 8 fit: add the first 5?");
  await page.getByRole("button", { name: "Add the first 5" }).click();
  await expect(page.getByTestId("add-added")).toHaveText("5");
  await expect(page.getByTestId("add-over-quota")).toHaveText("3");
  expect(await trackedUrls(account)).toEqual(urls.slice(0, 5).sort());
});
