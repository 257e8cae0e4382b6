import fs from "node:fs";
import Papa from "papaparse";
import type { Page } from "@playwright/test";
import { admin, api, createAccount, expect, expectNoPageOverflow, finishedJob, setUsedToday, signIn, signOut, test, type BulkAnswer } from "./fixtures";
import { columnHeadings, csvHeader, headline, HEADLINES, NETWORK_FIELDS, resultRow, shown, submitJobAs, uniqueHost, urlCell, type Networks } from "./bulk-support";

/**
 * Bulk jobs in the dashboard: a file checked in the browser before upload and named after it, live progress
 * to complete with the quota spent, the results table (a column per network of the job) and its downloads
 * checked against the public API v2, the history, the free plan's notice, the batch limit, and one account
 * never reaching another's job. bulk-results.spec.ts: each URL whole on hover, focus and copy; rows tracked.
 */

/** 30 valid URLs, 4 invalid lines, 3 repeats after normalization, blank lines; CRLF line ends. */
function urlFile() {
  const host = uniqueHost();
  const valid = Array.from({ length: 30 }, (_, i) => `https://${host}/post/${i}`);
  const lines = [
    ...valid.slice(0, 10),
    "not a url",
    `HTTPS://${host.toUpperCase()}/post/3`,
    "",
    ...valid.slice(10, 20),
    "ftp://example.com/file",
    `https://${host}/post/12#comments`,
    "http://localhost/",
    "   ",
    ...valid.slice(20),
    "example.com/no-scheme",
    valid[29]!,
  ];
  return { valid, text: `${lines.join("\r\n")}\r\n` };
}


async function readDownload(page: Page, button: string) {
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: button }).click()]);
  return { name: download.suggestedFilename(), text: fs.readFileSync((await download.path())!, "utf8") };
}

const cell = (value: string) => (value === "" ? null : Number(value));

test("bulk: a file is checked, submitted, followed to complete, and its results download as CSV and JSON", async ({ signedIn: page, account }) => {
  test.setTimeout(120_000);
  const { valid, text } = urlFile();

  await page.goto("/dashboard/bulk");
  await expect(page.getByRole("heading", { name: "Bulk", exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: /Drop a \.txt or \.csv file here/ })).toBeVisible();
  await page.getByLabel("URL file (.txt or .csv)").setInputFiles({ name: "urls.txt", mimeType: "text/plain", buffer: Buffer.from(text) });
  await expect(page.getByText("urls.txt")).toBeVisible();
  // The job is named after its file unless the user types another name.
  await expect(page.getByLabel("Job name (optional)")).toHaveValue("urls.txt");
  await expect(page.getByTestId("bulk-valid")).toHaveText("30");
  await expect(page.getByTestId("bulk-invalid")).toHaveText("4");
  await expect(page.getByTestId("bulk-duplicate")).toHaveText("3");
  await expect(page.getByTestId("bulk-limit")).toHaveText("1,000");
  await page.getByText("Show the invalid lines").click();
  await expect(page.getByText("Line 11:")).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("bulk.png"), fullPage: true });
  const allNetworks = Object.keys(NETWORK_FIELDS);

  // The account is 10 queries short of its quota: the job counts 10 URLs and pauses, so the page can only
  // learn of the rest by polling, once the plan is raised and the job resumes.
  setUsedToday(account.email, 100_000 - 10);
  let polls = 0;
  page.on("request", (request) => {
    if (/\/api\/dashboard\/bulk\/[0-9a-f]{40}$/.test(new URL(request.url()).pathname)) polls++;
  });
  await page.getByRole("button", { name: "Start job with 30 URLs" }).click();
  await expect(page).toHaveURL(/\/dashboard\/bulk\/[0-9a-f]{40}$/);
  const bulkId = new URL(page.url()).pathname.split("/").at(-1)!;

  const progress = page.getByRole("progressbar", { name: "Job progress" });
  await expect(progress).toHaveAttribute("aria-valuemax", "30");
  await expect(page.getByText("Paused: this account has used today’s quota.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "urls.txt", level: 1 })).toBeVisible();
  await expect(progress).toHaveAttribute("aria-valuenow", "10");
  await expect(page.getByTestId("bulk-quota-spent")).toHaveText("10 queries");
  admin("account:plan", "--email", account.email, "--plan", "dedicated");
  // A paused job is asked about every 30 s.
  await expect(progress).toHaveAttribute("aria-valuenow", "30", { timeout: 45_000 });
  await expect(page.getByTestId("bulk-progress-text")).toHaveText("30 of 30 URLs counted");
  await expect(page.getByTestId("bulk-quota-spent")).toHaveText("30 queries");
  await expect(page.locator("p").filter({ has: page.getByTestId("bulk-progress-text") })).toContainText("Complete");
  expect(polls).toBeGreaterThan(0);
  // Complete: the page stops asking.
  const pollsAtComplete = polls;
  await page.waitForTimeout(4_500);
  expect(polls).toBe(pollsAtComplete);

  const table = page.getByRole("table");
  await expect(page.getByRole("heading", { name: "Results (30)" })).toBeVisible();
  await expect(table).toHaveAttribute("aria-rowcount", "31");
  await expect(urlCell(page, valid[0]!)).toBeVisible();
  // The job asked the networks the account shows (all eight): a column each, after the checkbox and the URL.
  expect(await columnHeadings(page)).toEqual(["", "URL", ...allNetworks.map((network) => HEADLINES[network]!.heading)]);
  await page.screenshot({ path: test.info().outputPath("bulk-job.png"), fullPage: true });

  const expected = await finishedJob<Networks>(account.apiKey, bulkId, "v2");
  const data = expected.data as Record<string, Networks>;
  expect(Object.keys(data).sort()).toEqual([...valid].sort());
  expect(Object.keys(data[valid[0]!]!)).toEqual(allNetworks);
  // Reddit's budget in the e2e server covers bulk jobs: its numbers are there, not "not reported".
  expect(valid.some((url) => headline(data[url]!, "reddit") !== null)).toBe(true);

  // The table shows each network's headline number as the API reports it.
  for (const url of valid.slice(0, 5)) {
    await expect(resultRow(page, url).getByRole("cell")).toHaveText(["", url, ...allNetworks.map((network) => shown(headline(data[url]!, network)))]);
  }

  const csv = await readDownload(page, "Download CSV");
  expect(csv.name).toBe(`bulk-${bulkId}.csv`);
  const [header, ...rows] = Papa.parse<string[]>(csv.text.replace(/^\uFEFF/, ""), { skipEmptyLines: true }).data;
  expect(header).toEqual(csvHeader(allNetworks));
  expect(rows).toHaveLength(valid.length);
  for (const [url, ...values] of rows) {
    const networks = data[url!]!;
    expect(networks, url).toBeDefined();
    expect(values.map(cell), url).toEqual(allNetworks.flatMap((network) => NETWORK_FIELDS[network]!.map((field) => networks[network]![field])));
  }

  const json = await readDownload(page, "Download JSON");
  expect(json.name).toBe(`bulk-${bulkId}.json`);
  expect(JSON.parse(json.text)).toEqual(expected.data);

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(urlCell(page, valid[0]!)).toBeVisible();
  await expectNoPageOverflow(page);
  await page.screenshot({ path: test.info().outputPath("bulk-job-phone.png"), fullPage: true });

  // The history comes from the database: it survives a reload and signing out and in again.
  await page.goto("/dashboard/bulk");
  await page.reload();
  const entry = page.locator(`a[href="/dashboard/bulk/${bulkId}"]`);
  await expect(entry).toHaveText("urls.txt");
  await expect(page.getByRole("listitem").filter({ has: entry })).toContainText("30 of 30 URLs");
  await expectNoPageOverflow(page);
  await page.screenshot({ path: test.info().outputPath("bulk-phone.png"), fullPage: true });
  await signOut(page);
  await expect(page).toHaveURL(/\/sign-in/);
  await signIn(page, account);
  await page.goto("/dashboard/bulk");
  await entry.click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/bulk/${bulkId}$`));
  await expect(page.getByRole("heading", { name: "Results (30)" })).toBeVisible();
});

test("bulk: a free account sees which plan bulk jobs need instead of the uploader", async ({ page }) => {
  const free = createAccount("free");
  await signIn(page, free);
  await page.goto("/dashboard/bulk");
  await expect(page.getByRole("heading", { name: "Bulk jobs are not part of your plan" })).toBeVisible();
  await expect(page.getByText("you need the plus plan or higher")).toBeVisible();
  await expect(page.getByRole("list", { name: "Plans with bulk jobs" })).toContainText("plus: up to 500 URLs per job");
  await expect(page.locator('input[type="file"]')).toHaveCount(0);
  await expect(page.getByText("No bulk jobs yet.")).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("bulk-free.png"), fullPage: true });
});

test("bulk: the drop zone opens the file picker from the keyboard, and a CSV is read from its url column", async ({ signedIn: page }) => {
  const host = uniqueHost();
  const csv = [
    "\uFEFFtitle,URL,notes",
    `Home,https://${host}/,"first, page"`,
    `About,https://${host}/about,`,
    "Broken,not-a-url,",
    `Again,https://${host.toUpperCase()}/about,`,
  ].join("\r\n");
  await page.goto("/dashboard/bulk");
  await page.getByRole("button", { name: /Drop a \.txt or \.csv file here/ }).focus();
  const [chooser] = await Promise.all([page.waitForEvent("filechooser"), page.keyboard.press("Enter")]);
  await chooser.setFiles({ name: "pages.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await expect(page.getByTestId("bulk-valid")).toHaveText("2");
  await expect(page.getByTestId("bulk-invalid")).toHaveText("1");
  await expect(page.getByTestId("bulk-duplicate")).toHaveText("1");
  await expect(page.getByRole("button", { name: "Start job with 2 URLs" })).toBeEnabled();
  await expect(page.getByLabel("Or paste URLs, one per line")).toBeDisabled();
  await page.getByRole("button", { name: "Remove file" }).click();
  await expect(page.getByLabel("Or paste URLs, one per line")).toBeEnabled();
  await expect(page.getByRole("button", { name: "Start job with 0 URLs" })).toBeDisabled();
});

test("bulk: a paste over the plan's limit is refused before upload, with how many to remove", async ({ signedIn: page }) => {
  const host = uniqueHost();
  const submissions: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && request.url().includes("/api/dashboard/bulk")) submissions.push(request.url());
  });
  await page.goto("/dashboard/bulk");
  const urls = Array.from({ length: 1005 }, (_, i) => `https://${host}/p/${i}`);
  await page.getByLabel("Or paste URLs, one per line").fill(urls.join("\n"));
  await expect(page.getByTestId("bulk-valid")).toHaveText("1,005");
  const refusal = page.getByRole("alert").filter({ hasText: "over your plan’s limit of 1,000 per job" });
  await expect(refusal).toContainText("remove 5 URLs");
  await expect(refusal).toContainText("dedicated plan (10,000 per job)");
  const start = page.getByRole("button", { name: "Start job with 1,005 URLs" });
  await expect(start).toBeDisabled();
  await start.click({ force: true });

  await page.getByLabel("Or paste URLs, one per line").fill(urls.slice(0, 1000).join("\n"));
  await expect(page.getByTestId("bulk-valid")).toHaveText("1,000");
  await expect(page.getByRole("button", { name: "Start job with 1,000 URLs" })).toBeEnabled();
  expect(submissions).toEqual([]);
});

test("bulk: a job submitted through API v1 shows Facebook and Pinterest, as API v2 reads it", async ({ signedIn: page, account }) => {
  const host = uniqueHost();
  const urls = [`https://${host}/a`, `https://${host}/b`, `https://${host}/c`];
  const bulkId = await submitJobAs(account, urls, "v1.0");
  const expected = await finishedJob<Networks>(account.apiKey, bulkId, "v2");

  await page.goto(`/dashboard/bulk/${bulkId}`);
  await expect(page.getByRole("heading", { name: "Results (3)" })).toBeVisible();
  expect(await columnHeadings(page)).toEqual(["", "URL", "Facebook total count", "Pinterest"]);
  // A v1 job has no name: the page says what it is instead.
  await expect(page.getByRole("heading", { name: "Bulk job", level: 1 })).toBeVisible();
  await expect(page.getByTestId("bulk-quota-spent")).toHaveText("3 queries");
  const data = expected.data as Record<string, Networks>;
  const cells = resultRow(page, urls[0]!).getByRole("cell");
  await expect(cells).toHaveText(["", urls[0]!, shown(headline(data[urls[0]!]!, "facebook")), shown(headline(data[urls[0]!]!, "pinterest"))]);

  const csv = await readDownload(page, "Download CSV");
  const [header] = Papa.parse<string[]>(csv.text.replace(/^\uFEFF/, ""), { skipEmptyLines: true }).data;
  expect(header).toEqual(csvHeader(["facebook", "pinterest"]));
  const json = await readDownload(page, "Download JSON");
  expect(JSON.parse(json.text)).toEqual(expected.data);
});

test("bulk: one account cannot open another account's job, on the page or through the route", async ({ page, account: owner }) => {
  const bulkId = await submitJobAs(owner, [`https://${uniqueHost()}/a`, `https://${uniqueHost()}/b`], "v1.0");
  expect((await api(`/v1.0/bulk?bulk_id=${bulkId}`, owner.apiKey)).status).toBe(200);

  const other = createAccount("business");
  await signIn(page, other);
  await page.goto(`/dashboard/bulk/${bulkId}`);
  await expect(page.getByRole("heading", { name: "No such job" })).toBeVisible();

  const route = await page.request.get(`/api/dashboard/bulk/${bulkId}`);
  expect(route.status()).toBe(404);
  expect(((await route.json()) as { error: string }).error).toBe("bulk_not_found");

  await page.goto("/dashboard/bulk");
  await expect(page.getByText("No bulk jobs yet.")).toBeVisible();
  await expect(page.locator(`a[href="/dashboard/bulk/${bulkId}"]`)).toHaveCount(0);
  const history = await page.request.get("/api/dashboard/bulk");
  expect(history.status()).toBe(200);
  expect(JSON.stringify(await history.json())).not.toContain(bulkId);
});

test("bulk: a 10,000-URL job's results table renders only the rows in view, scrolls to the end and sorts", async ({ page }) => {
  // The sandbox job alone takes about 40 s: it asks two networks per URL, as a job of v1 did.
  test.setTimeout(240_000);
  const dedicated = createAccount("dedicated");
  const host = uniqueHost();
  const urls = Array.from({ length: 10_000 }, (_, i) => `https://${host}/item/${i}`);
  const jobNetworks = ["facebook", "reddit"];
  const bulkId = await submitJobAs(dedicated, urls, "v2", jobNetworks);

  // Opened while the job runs: the page follows it to the end by itself.
  await signIn(page, dedicated);
  await page.goto(`/dashboard/bulk/${bulkId}`);
  await expect(page.getByRole("progressbar", { name: "Job progress" })).toHaveAttribute("aria-valuenow", "10000", { timeout: 180_000 });
  await expect(page.getByRole("heading", { name: "Results (10,000)" })).toBeVisible();
  const table = page.getByRole("table");
  await expect(table).toHaveAttribute("aria-rowcount", "10001");
  expect(await table.locator("tbody tr").count()).toBeLessThan(80);

  const region = page.getByRole("region", { name: "Results table (scrollable)" });
  await region.evaluate((element) => (element.scrollTop = element.scrollHeight));
  await expect(urlCell(page, urls.at(-1)!)).toBeVisible();
  expect(await table.locator("tbody tr").count()).toBeLessThan(80);

  await region.evaluate((element) => (element.scrollTop = 0));
  const expected = (await api(`/v2/bulk?bulk_id=${bulkId}`, dedicated.apiKey)).body as BulkAnswer<Networks>;
  for (const network of jobNetworks) {
    const heading = HEADLINES[network]!.heading;
    await page.getByRole("button", { name: heading, exact: true }).click();
    await expect(page.getByRole("columnheader", { name: heading, exact: true })).toHaveAttribute("aria-sort", "descending");
    const largest = Math.max(...Object.values(expected.data as Record<string, Networks>).map((networks) => headline(networks, network) ?? -Infinity));
    await expect(table.locator("tbody tr").first().locator("td").nth(2 + jobNetworks.indexOf(network))).toHaveText(shown(largest));
  }
});
