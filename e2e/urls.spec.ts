import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "@playwright/test";
import { api, type E2EAccount, expect, expectNoPageOverflow, test, trackByApi, withDatabase } from "./fixtures";

/**
 * Tracked URLs in the dashboard: pasted URLs counted into the table, one URL's history charts with its range
 * in the page's address and its CSV, a sitemap import followed to the end, and search, sort and removal.
 * The sitemap test reads a server on 127.0.0.1, so the e2e server needs SITEMAP_ALLOW_PRIVATE_HOSTS=true.
 */

const DAY = 86_400_000;
const HOUR = 3_600_000;
const CSV_HEADER =
  "url,t,facebook_total_count,facebook_comment_count,facebook_reaction_count,facebook_share_count,facebook_comment_plugin_count,pinterest_count";

const uniqueHost = (name: string) => `${name}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}.example.com`;

interface TrackedDetail {
  total: number | null;
  networks: {
    facebook?: { total_count: number | null };
    pinterest?: { count: number | null };
    reddit?: { score: number | null; comments: number | null };
  };
}

/** A count as the dashboard writes it: null is "not reported", never 0. */
const shown = (n: number | null | undefined) => (n === null || n === undefined ? "not reported" : n.toLocaleString("en-US"));

/** The public API's view of one tracked URL, once it has been counted. */
async function countedDetail(account: E2EAccount, url: string): Promise<TrackedDetail> {
  let detail: TrackedDetail & { last_refreshed_at: string | null } = { total: null, networks: {}, last_refreshed_at: null };
  await expect
    .poll(async () => {
      detail = (await api(`/v2/tracked/url?url=${encodeURIComponent(url)}`, account.apiKey)).body as typeof detail;
      return detail.last_refreshed_at;
    })
    .not.toBeNull();
  return detail;
}

/**
 * Earlier points of a URL's history, straight in the database (a real history takes days): `days` ago, with
 * `pinterest` null where Pinterest did not report.
 */
/**
 * Earlier points of a URL the account tracks, as if it had tracked it since before them (an account's history
 * of a URL starts when it came to it).
 */
function seedHistory(url: string, email: string, points: { daysAgo: number; facebook: number; pinterest: number | null }[]) {
  withDatabase((db) => {
    const id = db.prepare<[string], number>("SELECT id FROM counted_url WHERE url = ?").pluck().get(url)!;
    const insert = db.prepare(
      `INSERT INTO observation (url_id, hour, observed_at, facebook_total, facebook_comment, facebook_reaction, facebook_share, facebook_comment_plugin, pinterest)
       VALUES (?, ?, ?, ?, 0, 0, ?, 0, ?)`,
    );
    for (const point of points) {
      const at = Date.now() - point.daysAgo * DAY;
      insert.run(id, Math.floor(at / HOUR), at, point.facebook, point.facebook, point.pinterest);
    }
    const since = Date.now() - Math.max(...points.map((p) => p.daysAgo)) * DAY - HOUR;
    db.prepare("UPDATE queried_url SET first_at = ? WHERE url_id = ? AND account_id = (SELECT id FROM account WHERE email = ?)").run(since, id, email);
  });
}

const rowOf = (page: Page, url: string) => page.getByTestId("tracked-table").getByRole("row").filter({ has: page.getByRole("link", { name: url, exact: true }) });

/** Where the column headed `heading` is: the table has a column per network the account shows. */
async function columnIndex(page: Page, heading: string): Promise<number> {
  const headings = await page.getByTestId("tracked-table").getByRole("columnheader").allInnerTexts();
  const index = headings.findIndex((text) => text.split("\n")[0]!.trim() === heading);
  expect(index, `a column headed ${heading} among ${headings.join(" | ")}`).toBeGreaterThanOrEqual(0);
  return index;
}

test("pasted URLs are tracked and counted; a URL's page charts its history, keeps its range in the address and exports CSV", async ({
  signedIn: page,
  account,
}) => {
  test.setTimeout(120_000);
  const host = uniqueHost("urls");
  const [first, second] = [`https://${host}/a`, `https://${host}/b`];

  await page.goto("/dashboard/urls");
  await expect(page.getByRole("heading", { name: "URLs", level: 1 })).toBeVisible();
  await expect(page.getByTestId("tracked-summary")).toHaveText("0 of 50,000 URLs tracked");
  await expect(page.getByText("No URLs are tracked yet.")).toBeVisible();

  await page.getByLabel("URLs, one per line").fill(`${first}\n${second}\n`);
  // What it costs is said before anything is added: a slot and a query of today's quota per new URL.
  const cost = page.getByTestId("add-cost").first();
  await expect(cost).toContainText("takes a slot and spends one query of today's quota");
  await expect(cost).toContainText("50,000 slots free, 100,000 queries left today.");
  await page.getByRole("button", { name: "Track 2 URLs" }).click();
  await expect(page.getByTestId("add-added")).toHaveText("2");
  await expect(cost).toContainText("49,998 slots free, 99,998 queries left today.");
  await expect(page.getByTestId("add-already-tracked")).toHaveText("0");
  await expect(page.getByTestId("add-invalid")).toHaveText("0");
  await expect(page.getByTestId("tracked-summary")).toHaveText("2 of 50,000 URLs tracked");

  // The refresh counts them within seconds; the table asks again until it has.
  await expect(rowOf(page, first)).toBeVisible();
  const column = {
    total: await columnIndex(page, "Total"),
    facebook: await columnIndex(page, "Facebook"),
    pinterest: await columnIndex(page, "Pinterest"),
    reddit: await columnIndex(page, "Reddit"),
  };
  // Every network the sandbox service asks is shown (the account chose none), each its own column.
  for (const heading of ["Hacker News", "Bluesky", "VK", "OK.ru", "Tumblr"]) await columnIndex(page, heading);
  for (const url of [first, second]) {
    const detail = await countedDetail(account, url);
    const cells = rowOf(page, url).getByRole("cell");
    const reddit = detail.networks.reddit;
    await expect(cells.nth(column.facebook)).toHaveText(shown(detail.networks.facebook?.total_count));
    await expect(cells.nth(column.pinterest)).toHaveText(shown(detail.networks.pinterest?.count));
    await expect(cells.nth(column.reddit)).toHaveText(shown(reddit?.score == null || reddit.comments === null ? null : reddit.score + reddit.comments));
    await expect(cells.nth(column.total)).toHaveText(shown(detail.total));
  }
  await page.screenshot({ path: test.info().outputPath("urls.png"), fullPage: true });

  // Two earlier days: Facebook's line has three points; Pinterest did not report on one day, a gap (not a 0).
  seedHistory(first, account.email, [
    { daysAgo: 3, facebook: 10, pinterest: 4 },
    { daysAgo: 2, facebook: 12, pinterest: null },
  ]);
  await rowOf(page, first).getByRole("link").click();
  await expect(page).toHaveURL(`/dashboard/urls/view?url=${encodeURIComponent(first)}&range=30&interval=day`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(first);
  await expect(page.getByRole("link", { name: first })).toHaveAttribute("rel", "noopener noreferrer");

  // The Total line over the networks shown, and under it a bar for the one day with the day before to compare (+2: Facebook's 10 to 12).
  // The first chart waits for the history and the charts' lazily loaded code: on a loaded machine that took over 15 s.
  await expect(page.getByRole("application", { name: "Total, daily, last 30 days" }).locator("path.recharts-line-curve")).toHaveAttribute("d", /^M[\d.]+,[\d.]+L/, {
    timeout: 40_000,
  });
  await expect(page.getByRole("application", { name: "Daily change of the total, last 30 days" }).locator(".recharts-bar-rectangle")).toHaveCount(1);
  await expect(page.getByTestId("daily-change-caption")).toHaveText("+2 in all over the 1 day with the day before to compare.");
  const facebookChart = page.getByRole("application", { name: "Facebook total count, daily, last 30 days" });
  await expect(facebookChart).toBeVisible();
  await expect(facebookChart.locator("path.recharts-line-curve")).toHaveAttribute("d", /^M[\d.]+,[\d.]+L/);
  await expect(page.getByRole("application", { name: "Pinterest count, daily, last 30 days" })).toBeVisible();
  await expect(page.getByTestId("history-pinterest").locator("figcaption")).toHaveText(/gaps where it did not report/);
  // A chart for each network shown: Reddit's plots its score + comments (today's count only: the seeded days have none).
  await expect(page.getByTestId("history-reddit").getByRole("heading")).toHaveText("Reddit (score + comments)");
  await expect(page.getByTestId("history-tumblr")).toBeVisible();
  await expect(page.getByTestId("forms-table").getByRole("rowheader", { name: first })).toBeVisible();
  await expect(page.getByTestId("forms-table").getByRole("columnheader", { name: "Hacker News" })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("url.png"), fullPage: true });

  await page.getByRole("button", { name: "7 days" }).click();
  await expect(page).toHaveURL(/range=7&interval=day$/);
  await expect(page.getByRole("application", { name: "Facebook total count, daily, last 7 days" })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("button", { name: "7 days" })).toHaveAttribute("aria-pressed", "true");

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export CSV" }).click()]);
  expect(download.suggestedFilename()).toBe(`${host}_a_history.csv`);
  const [header, ...rows] = fs.readFileSync((await download.path())!, "utf8").trim().split(/\r\n/).map((line) => line.split(","));
  // The URL and the time, Facebook's and Pinterest's columns, then each other network's fields.
  expect(header!.slice(0, CSV_HEADER.split(",").length).join(",")).toBe(CSV_HEADER);
  expect(header).toContain("reddit_score");
  expect(rows).toHaveLength(3);
  const cell = (row: string[], column: string) => row[header!.indexOf(column)];
  expect(rows.map((row) => cell(row, "url"))).toEqual([first, first, first]);
  expect(cell(rows[1]!, "facebook_total_count")).toBe("12");
  // Pinterest's missing day is an empty cell, never a 0.
  expect(cell(rows[1]!, "pinterest_count")).toBe("");

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole("application", { name: "Facebook total count, daily, last 7 days" })).toBeVisible();
  await expectNoPageOverflow(page);
  await page.screenshot({ path: test.info().outputPath("url-phone.png"), fullPage: true });
  await page.goto("/dashboard/urls");
  await expect(rowOf(page, first)).toBeVisible();
  await expectNoPageOverflow(page);
  await page.screenshot({ path: test.info().outputPath("urls-phone.png"), fullPage: true });
});

test("a sitemap served on 127.0.0.1 is imported with live progress, and a broken one reports its error", async ({ signedIn: page }) => {
  const host = uniqueHost("sitemap");
  const pages = [0, 1, 2].map((i) => `https://${host}/post/${i}`);
  const site = http.createServer((request, response) => {
    response.setHeader("content-type", "application/xml");
    if (request.url === "/sitemap.xml") {
      response.end(
        `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${pages.map((u) => `<url><loc>${u}</loc></url>`).join("")}</urlset>`,
      );
    } else {
      response.end("<urlset><url><loc>https://broken.example.com/</loc></url>");
    }
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  try {
    await page.goto("/dashboard/urls");
    await page.getByRole("tab", { name: "Sitemap" }).click();
    await expect(page.getByRole("tab", { name: "Sitemap" })).toHaveAttribute("aria-selected", "true");
    await page.getByLabel("Sitemap URL").fill(`${origin}/sitemap.xml`);
    await page.getByRole("button", { name: "Import sitemap" }).click();
    const progress = page.getByTestId("import-progress");
    await expect(progress).toHaveText(/Reading the sitemap…|Found 3 URLs/);
    await expect(progress).toHaveText("Found 3 URLs, added 3.", { timeout: 30_000 });
    for (const url of pages) await expect(rowOf(page, url)).toBeVisible();
    await expect(page.getByTestId("tracked-summary")).toHaveText("3 of 50,000 URLs tracked");

    await page.getByLabel("Sitemap URL").fill(`${origin}/broken.xml`);
    await page.getByRole("button", { name: "Import sitemap" }).click();
    await expect(progress).toHaveText(/not well-formed XML/, { timeout: 30_000 });
  } finally {
    site.close();
  }
});

test("the list searches and sorts on the server, removes a URL after confirming, and says when a URL is not tracked", async ({
  signedIn: page,
  account,
}) => {
  const host = uniqueHost("list");
  const urls = ["alpha", "beta", "gamma"].map((name) => `https://${host}/${name}`);
  await trackByApi(account, urls);
  for (const url of urls) await countedDetail(account, url);

  await page.goto("/dashboard/urls");
  for (const url of urls) await expect(rowOf(page, url)).toBeVisible();

  const searched = page.waitForRequest((request) => new URL(request.url()).searchParams.get("q") === "beta");
  await page.getByLabel("Search tracked URLs").fill("beta");
  await searched;
  await expect(rowOf(page, urls[1]!)).toBeVisible();
  await expect(rowOf(page, urls[0]!)).toHaveCount(0);
  await page.getByLabel("Search tracked URLs").fill("");
  await expect(rowOf(page, urls[0]!)).toBeVisible();

  const total = page.getByRole("columnheader", { name: /Total/ });
  await expect(page.getByRole("columnheader", { name: /Added/ })).toHaveAttribute("aria-sort", "descending");
  await total.getByRole("button").click();
  await expect(total).toHaveAttribute("aria-sort", "descending");
  await total.getByRole("button").click();
  await expect(total).toHaveAttribute("aria-sort", "ascending");
  const totalColumn = (await columnIndex(page, "Total")) + 1;
  const totals = async () =>
    (await page.getByTestId("tracked-table").locator(`tbody tr[aria-rowindex] td:nth-child(${totalColumn})`).allInnerTexts()).map((text) =>
      Number(text.replace(/,/g, "")),
    );
  // The rows of the new order arrive after the header changes.
  await expect.poll(async () => {
    const numbers = await totals();
    return numbers.length === 3 && numbers.every((n, i) => i === 0 || numbers[i - 1]! <= n);
  }).toBe(true);

  await page.getByRole("button", { name: `Remove ${urls[2]}` }).click();
  const dialog = page.getByRole("dialog", { name: "Stop tracking this URL?" });
  await expect(dialog).toContainText(urls[2]!);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(rowOf(page, urls[2]!)).toBeVisible();
  await page.getByRole("button", { name: `Remove ${urls[2]}` }).click();
  await dialog.getByRole("button", { name: "Stop tracking" }).click();
  await expect(rowOf(page, urls[2]!)).toHaveCount(0);
  await expect(page.getByTestId("tracked-summary")).toHaveText("2 of 50,000 URLs tracked");

  await page.goto(`/dashboard/urls/view?url=${encodeURIComponent(urls[2]!)}`);
  await expect(page.getByTestId("not-tracked")).toContainText(urls[2]!);
  await page.getByRole("link", { name: "See your tracked URLs" }).click();
  await expect(page).toHaveURL(/\/dashboard\/urls$/);
});
