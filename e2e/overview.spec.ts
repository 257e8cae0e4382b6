import { admin, api, createAccount, expect, expectNoPageOverflow, setUsedToday, signIn, test } from "./fixtures";

interface Quota {
  quota_used_today: number;
  quota_remaining_today: number;
  quota_allocated_today: number;
  plan: string;
}

const thousands = (n: number) => n.toLocaleString("en-US");

test("shows the plan, today's quota as the API reports it, the reset time and the service status", async ({ signedIn: page, account }) => {
  const quota = (await api("/v1.0/quota", account.apiKey)).body as Quota;
  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
  await expect(page.getByTestId("plan-name")).toHaveText("business");
  await expect(page.getByTestId("quota-used")).toHaveText(thousands(quota.quota_used_today));
  await expect(page.getByTestId("quota-remaining")).toHaveText(thousands(quota.quota_remaining_today));
  await expect(page.getByTestId("quota-allocated")).toHaveText(thousands(quota.quota_allocated_today));
  const bar = page.getByRole("progressbar", { name: "Quota used today" });
  await expect(bar).toHaveAttribute("aria-valuenow", String(quota.quota_used_today));
  await expect(bar).toHaveAttribute("aria-valuemax", String(quota.quota_allocated_today));
  await expect(page.getByTestId("quota-reset")).toContainText(/Resets at .+ your time \(.+\), in \d+ (h|min)/);
  await expect(page.getByTestId("service-status")).toHaveText("Up");
  await expect(page.getByTestId("quota-warning")).toHaveCount(0);
  await expect(page.getByTestId("quota-exhausted")).toHaveCount(0);

  // The keys are summed up, never shown: keys are kept as hashes and shown only when made.
  await expect(page.getByTestId("key-summary")).toHaveText("1 key works. Your sites and scripts send a key with every query (?apikey=…).");
  await expect(page.getByRole("link", { name: "Manage keys" })).toHaveAttribute("href", "/dashboard/keys");
  expect(await page.content()).not.toContain(account.apiKey);
  const html = await (await page.request.get("/dashboard")).text();
  expect(html).not.toContain(account.apiKey);

  await page.screenshot({ path: test.info().outputPath("overview.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId("quota-used")).toBeVisible();
  await expectNoPageOverflow(page);
  await page.screenshot({ path: test.info().outputPath("overview-phone.png"), fullPage: true });
});

test("looks up a URL through API v1.0: the count object, the cache header from MISS to HIT, and sandbox data marked", async ({ signedIn: page, account }) => {
  const url = `https://example.com/e2e-lookup-${Date.now().toString(36)}`;
  await page.goto("/dashboard");
  await page.getByLabel("URL").fill(url);
  await page.getByLabel("API v1.0 — Facebook and Pinterest").check();
  await page.getByRole("button", { name: "Look up" }).click();
  await expect(page.getByTestId("lookup-cache")).toContainText("Cache: MISS");
  await expect(page.getByTestId("lookup-sandbox")).toBeVisible();

  // The same URL through the public API, as a client would ask: the dashboard showed exactly these counts.
  const { body } = await api(`/v1.0/?url=${encodeURIComponent(url)}`, account.apiKey);
  const counts = body as { Pinterest: number | null; Facebook: Record<string, number | null> };
  const shown = (n: number | null) => (n === null ? "not reported" : thousands(n));
  const list = page.getByTestId("lookup-counts");
  for (const [label, value] of [
    ["Facebook total", counts.Facebook.total_count],
    ["Shares", counts.Facebook.share_count],
    ["Reactions", counts.Facebook.reaction_count],
    ["Comments", counts.Facebook.comment_count],
    ["Comment plugin", counts.Facebook.comment_plugin_count],
    ["Pinterest", counts.Pinterest],
  ] as const) {
    await expect(list.locator("div").filter({ has: page.locator("dt", { hasText: new RegExp(`^${label}$`) }) }).locator("dd")).toHaveText(shown(value ?? null));
  }

  await page.getByRole("button", { name: "Look up" }).click();
  await expect(page.getByTestId("lookup-cache")).toContainText("Cache: HIT");
  await page.screenshot({ path: test.info().outputPath("overview-lookup.png"), fullPage: true });
  // Three queries so far (two here, one direct): the overview's numbers follow the lookups.
  await expect(page.getByTestId("quota-used")).toHaveText("3");
});

test("looks up a URL through API v2 by default: each network the account shows, Reddit's numbers among them", async ({ signedIn: page }) => {
  await page.goto("/dashboard");
  await expect(page.getByLabel("API v2 — your networks")).toBeChecked();
  // One fixed URL: the sandbox's counts for it are the same on every run (and it reports Reddit).
  await page.getByLabel("URL").fill("https://example.com/e2e-lookup-v2");
  await page.getByRole("button", { name: "Look up" }).click();
  const reddit = page.getByTestId("lookup-network-reddit");
  const number = /^\d{1,3}(,\d{3})*$/;
  await expect(reddit.locator("dt").first()).toHaveText("Reddit score + comments");
  await expect(reddit.locator("dd").first()).toHaveText(number);
  for (const field of ["Score", "Comments", "Posts"]) {
    await expect(reddit.locator("div").filter({ has: page.locator("dt", { hasText: new RegExp(`^${field}$`) }) }).locator("dd")).toHaveText(number);
  }
  await expect(page.getByTestId("lookup-network-facebook")).toBeVisible();
  await expect(page.getByTestId("lookup-network-pinterest")).toBeVisible();
  await expect(page.getByTestId("lookup-sandbox")).toBeVisible();
  // The cache header is v1.0's; v2 says per network how fresh each count is.
  await expect(page.getByTestId("lookup-cache")).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath("overview-lookup-v2.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(reddit).toBeVisible();
  await expectNoPageOverflow(page);
  await page.screenshot({ path: test.info().outputPath("overview-lookup-v2-phone.png"), fullPage: true });
});

test("warns at 90% of the quota", async ({ page }) => {
  const account = createAccount("free");
  setUsedToday(account.email, 450);
  await signIn(page, account);
  await expect(page.getByTestId("quota-warning")).toContainText("You have used 90% of today's quota");
  await expect(page.getByRole("progressbar", { name: "Quota used today" })).toHaveAttribute("aria-valuenow", "450");
});

test("an account at its quota sees it used up, and a lookup says so in words", async ({ page }) => {
  const account = createAccount("free");
  const allocated = Number((admin("account:show", "--email", account.email).quota as { allocated_today: number }).allocated_today);
  setUsedToday(account.email, allocated);
  await signIn(page, account);
  await expect(page.getByTestId("quota-exhausted")).toContainText("Quota used up.");
  await expect(page.getByTestId("quota-exhausted")).toContainText(/until the quota resets at .+, in \d+ (h|min)/);
  await expect(page.getByTestId("quota-remaining")).toHaveText("0");
  await expect(page.getByRole("progressbar", { name: "Quota used today" })).toHaveAttribute("aria-valuenow", String(allocated));

  await page.getByLabel("URL").fill("https://example.com/over-quota");
  await page.getByRole("button", { name: "Look up" }).click();
  const refused = page.getByRole("alert").filter({ hasText: "Today's quota is used up" });
  // On the Overview, not "see Overview": when it resets, in the reader's time; and no Retry that cannot succeed.
  await expect(refused).toContainText(/It resets at .+ your time\./);
  await expect(refused).not.toContainText("Overview");
  await expect(refused.getByRole("button", { name: "Retry" })).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath("overview-quota-used-up.png"), fullPage: true });
});

test("a lookup without a scheme is read as https://, and a new lookup clears the last result", async ({ signedIn: page }) => {
  await page.goto("/dashboard");
  await page.getByLabel("URL").fill("example.com/lookup-without-scheme");
  await page.getByRole("button", { name: "Look up" }).click();
  await expect(page.getByRole("heading", { name: "Counts for https://example.com/lookup-without-scheme" })).toBeVisible();
  await expect(page.getByLabel("URL")).toHaveValue("https://example.com/lookup-without-scheme");

  // The next lookup (scheme-less again) starts, and while its answer is held back the last result is gone,
  // not left on screen as if it were the new one.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/dashboard/lookup", async (route) => {
    await held;
    await route.continue();
  });
  await page.getByLabel("URL").fill("example.com/lookup-second");
  await page.getByRole("button", { name: "Look up" }).click();
  await expect(page.getByRole("button", { name: "Looking up…" })).toBeVisible();
  await expect(page.getByTestId("lookup-counts")).toHaveCount(0);
  release();
  await expect(page.getByRole("heading", { name: "Counts for https://example.com/lookup-second" })).toBeVisible();
});

test("a lookup the API refuses (an invalid URL) says why, without a Retry that cannot help", async ({ signedIn: page }) => {
  await page.goto("/dashboard");
  await page.getByLabel("URL").fill("http://192.168.0.1/router");
  await page.getByRole("button", { name: "Look up" }).click();
  const refused = page.getByRole("alert").filter({ hasText: "Not a valid URL" });
  await expect(refused).toContainText("public host");
  await expect(refused.getByRole("button", { name: "Retry" })).toHaveCount(0);
});
