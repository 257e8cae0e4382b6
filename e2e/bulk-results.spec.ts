import type { Page } from "@playwright/test";
import { api, expect, expectNoPageOverflow, finishedJob, setUsedToday, test } from "./fixtures";
import { resultRow, submitJobAs, uniqueHost, urlCell } from "./bulk-support";

/**
 * A bulk job's results table: long URLs that share their beginning show their ends (a middle ellipsis) and
 * are whole on hover, on focus, to screen readers and on copy; selected rows are tracked through the URL
 * list's route, its cost said first and what did not fit said after.
 */

/** The URL's end is drawn whole inside its cell, however narrow the cell. */
async function expectEndInView(page: Page, url: string, end: string) {
  const cell = await urlCell(page, url).boundingBox();
  const tail = await urlCell(page, url).getByText(end, { exact: true }).boundingBox();
  expect(cell && tail).toBeTruthy();
  expect(tail!.x).toBeGreaterThanOrEqual(cell!.x);
  expect(tail!.x + tail!.width).toBeLessThanOrEqual(cell!.x + cell!.width);
}

test("bulk results: URLs sharing a long beginning show their ends, and are whole on hover, focus and copy", async ({ signedIn: page, account }) => {
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  const prefix = `https://www.example-news.com/${uniqueHost()}/2026/05/politics/national-affairs`;
  const urls = Array.from({ length: 5 }, (_, i) => `${prefix}/vote-${i}`);
  // Every network the account shows (all eight): their columns leave the URL less room than it needs.
  const bulkId = await submitJobAs(account, urls, "v2", undefined, "Long URLs");
  await finishedJob(account.apiKey, bulkId, "v2");

  await page.goto(`/dashboard/bulk/${bulkId}`);
  await expect(page.getByRole("heading", { name: "Long URLs", level: 1 })).toBeVisible();
  const url = urls[3]!;
  // The beginning is cut short, the end is drawn whole, and the page's text holds the whole URL.
  await expectEndInView(page, url, "/vote-3");
  const text = page.getByTitle(url, { exact: true });
  await expect(text).toHaveText(url);
  expect(await text.locator("span").first().evaluate((head) => head.scrollWidth > head.clientWidth)).toBe(true);

  const copy = page.getByRole("button", { name: `Copy ${url}`, exact: true });
  await copy.focus();
  await expect(page.getByTestId("full-url")).toHaveText(url);
  await expect(page.getByTestId("full-url")).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status").filter({ hasText: `Copied ${url}` })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
  await page.screenshot({ path: test.info().outputPath("bulk-long-urls.png"), fullPage: true });
  await copy.blur();
  await expect(page.getByTestId("full-url")).toHaveCount(0);

  await page.setViewportSize({ width: 390, height: 844 });
  await expectEndInView(page, url, "/vote-3");
  await expectNoPageOverflow(page);
  await copy.focus();
  await expect(page.getByTestId("full-url")).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("bulk-long-urls-phone.png"), fullPage: true });
});

test("bulk results: selected rows are tracked in the order shown, with the cost first and what did not fit after", async ({ signedIn: page, account }) => {
  const host = uniqueHost();
  const urls = Array.from({ length: 6 }, (_, i) => `https://${host}/p-${i}`);
  const bulkId = await submitJobAs(account, urls, "v2", ["facebook"], "To track");
  await finishedJob(account.apiKey, bulkId, "v2");
  // Two queries of today's quota are left: room for two new tracked URLs.
  setUsedToday(account.email, 100_000 - 2);

  await page.goto(`/dashboard/bulk/${bulkId}`);
  const selected = page.getByTestId("bulk-selected");
  const track = page.getByRole("button", { name: "Track selected" });
  await expect(selected).toHaveText("0 of 6 selected");
  await expect(track).toBeDisabled();

  // Sorted by URL, descending: p-5 and p-4 come first, and they are the two that fit.
  await page.getByRole("button", { name: "URL", exact: true }).click();
  await page.getByRole("button", { name: "URL", exact: true }).click();
  const all = page.getByRole("checkbox", { name: "Select all 6 URLs" });
  await all.check();
  await expect(selected).toHaveText("6 of 6 selected");
  await expect(resultRow(page, urls[0]!).getByRole("checkbox")).toBeChecked();
  await expect(page.getByTestId("add-cost")).toContainText("left today");
  await track.click();
  await expect(page.getByTestId("track-added")).toHaveText("2");
  await expect(page.getByTestId("track-over-quota")).toHaveText("4");
  await expect(selected).toHaveText("0 of 6 selected");
  const tracked = (await api("/v2/tracked", account.apiKey)).body as { data: { url: string }[] };
  expect(tracked.data.map((row) => row.url).sort()).toEqual([urls[4], urls[5]]);

  // Select all, then one fewer: the header box says "some".
  await all.check();
  await resultRow(page, urls[2]!).getByRole("checkbox").uncheck();
  await expect(selected).toHaveText("5 of 6 selected");
  expect(await all.evaluate((box: HTMLInputElement) => box.indeterminate)).toBe(true);
  await resultRow(page, urls[2]!).getByRole("checkbox").check();
  await expect(all).toBeChecked();
  await page.screenshot({ path: test.info().outputPath("bulk-track.png"), fullPage: true });
  await track.click();
  await expect(page.getByTestId("track-added")).toHaveText("0");
  await expect(page.getByTestId("track-already-tracked")).toHaveText("2");
  await expect(page.getByTestId("track-over-quota")).toHaveText("4");
  await expect(page.getByRole("link", { name: "Open your URL list" })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("bulk-tracked.png"), fullPage: true });
});
