import { execFileSync } from "node:child_process";
import { E2E_BASE_URL } from "./env";
import { expect, test } from "./fixtures";
import { dashboardPages } from "./routes";

/** What every page has: an icon (no 404 for it), and a page of our own for an address that has none. */

test("every page has its icon: the browser asks for nothing that is missing", async ({ signedIn: page }) => {
  const missing: string[] = [];
  page.on("response", (response) => {
    if (response.status() === 404) missing.push(response.url());
  });
  for (const pathname of ["/sign-in", ...dashboardPages()]) {
    await page.goto(pathname);
    await page.waitForLoadState("networkidle");
  }
  expect(missing).toEqual([]);
  const icons = await page.locator('link[rel="icon"]').evaluateAll((links) => links.map((l) => (l as HTMLLinkElement).href));
  expect(icons.length).toBeGreaterThan(0);
  for (const href of [...icons, `${E2E_BASE_URL}/favicon.ico`]) {
    const response = await page.request.get(href);
    expect(response.status(), href).toBe(200);
    expect(response.headers()["content-type"], href).toMatch(/^image\//);
  }
});

test("an address no page answers gets a branded 404 with a way back", async ({ page, account }) => {
  const response = await page.goto("/no-such-page");
  expect(response!.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await expect(page.getByText("sharecount", { exact: true })).toBeVisible();
  await page.getByRole("link", { name: "Go to the home page" }).click();
  await expect(page).toHaveURL(`${E2E_BASE_URL}/`);

  // Signed in, the way back is the dashboard.
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/dashboard/no-such-page");
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await page.getByRole("link", { name: "Back to the dashboard" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("the landing page names all eight networks, the count history and API v2", async ({ page }) => {
  await page.goto("/");
  const networks = page.getByTestId("landing-networks").getByRole("listitem");
  await expect(networks).toHaveCount(8);
  for (const name of ["Facebook", "Pinterest", "Reddit", "Hacker News", "Bluesky", "VK", "OK.ru", "Tumblr"]) {
    await expect(networks.filter({ hasText: name }).first(), name).toBeVisible();
  }
  await expect(page.getByRole("heading", { name: "API v2" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Count history" })).toBeVisible();
});

test.describe("the API reference", () => {
  test("lists every endpoint in a sidebar, searches them, and links each by its anchor", async ({ signedIn: page }) => {
    await page.goto("/dashboard/api");
    const sidebar = page.getByRole("navigation", { name: "Endpoints" });
    const cards = page.locator("main section[id^='get-'], main section[id^='post-'], main section[id^='put-'], main section[id^='patch-'], main section[id^='delete-']");
    // One per operation of the API's own document.
    const document = (await (await fetch(`${E2E_BASE_URL}/v2/openapi.json`)).json()) as { paths: Record<string, object> };
    const total = Object.values(document.paths).reduce((sum, methods) => sum + Object.keys(methods).length, 0);
    await expect(cards).toHaveCount(total);
    await expect(sidebar.getByRole("link").filter({ hasText: "/" })).toHaveCount(total);
    await expect(page.getByTestId("reference-count")).toHaveText(`${total} endpoints`);

    // The search narrows the sidebar and the list alike.
    await page.getByLabel("Search endpoints").fill("post bulk");
    await expect(page.getByTestId("reference-count")).toHaveText(`3 of ${total} endpoints`);
    await expect(cards).toHaveCount(3);
    await expect(sidebar.getByRole("link").filter({ hasText: "/" })).toHaveText(["POST /v1.0/bulk", "POST /v1.1/bulk", "POST /v2/bulk"]);
    await page.getByLabel("Search endpoints").fill("no such endpoint");
    await expect(cards).toHaveCount(0);
    await page.getByRole("button", { name: "Show every endpoint" }).click();
    await expect(cards).toHaveCount(total);

    // Each endpoint has an anchor; the sidebar's links go there.
    await sidebar.getByRole("link", { name: "POST /v1.0/bulk" }).click();
    await expect(page).toHaveURL(/#post-v1-0-bulk$/);
    await expect(page.locator("#post-v1-0-bulk")).toBeInViewport();
  });

  test("shows statuses as the API answers them, inline code as code, and a bulk example with a body that runs", async ({ signedIn: page, account }) => {
    await page.goto("/dashboard/api");
    const answerOf = (card: string, status: string) => page.locator(`#${card} [data-testid="reference-response"]`).filter({ has: page.locator(`dt:text-is("${status}")`) });
    // v1.0 refuses a used-up quota with 401, as the original service does; v1.1 with 403.
    await expect(answerOf("get-v1-0", "401").locator("code", { hasText: "quota_exceeded" })).toBeVisible();
    await expect(answerOf("get-v1-0", "403")).not.toContainText("quota_exceeded");
    await expect(answerOf("get-v1-1", "403").locator("code", { hasText: "quota_exceeded" })).toBeVisible();
    expect(await page.locator("main").innerText()).not.toContain("`");

    // Scrollable examples are reachable by keyboard and named.
    const example = page.locator("#post-v1-0-bulk").getByTestId("reference-example");
    await expect(example).toHaveAttribute("tabindex", "0");
    await expect(example).toHaveAttribute("aria-label", "curl example of POST /v1.0/bulk");

    // Each operation names its scope.
    await expect(page.locator("#post-v1-0-bulk").getByTestId("reference-scope")).toHaveText("Needs a key with the scope bulk:write.");
    // The bulk submission's example carries URL lines, and runs as shown with a pasted key (which stays in the page).
    await page.getByTestId("reference-key").fill(account.apiKey);
    await expect(example).not.toContainText("YOUR_KEY");
    const command = await example.innerText();
    expect(command).toContain("--data-binary @-");
    const answer = JSON.parse(execFileSync("sh", ["-c", command], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] })) as { count: number; bulk_id: string };
    expect(answer).toMatchObject({ count: 2, bulk_id: expect.stringMatching(/^[0-9a-f]{40}$/) });
  });

  test("folds the endpoint list behind a button on a phone", async ({ signedIn: page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/dashboard/api");
    const sidebar = page.getByRole("navigation", { name: "Endpoints" });
    await expect(sidebar).toBeHidden();
    await page.getByRole("button", { name: "Show the endpoint list" }).click();
    await expect(sidebar).toBeVisible();
    await sidebar.getByRole("link", { name: "GET /v2/history.csv" }).click();
    await expect(sidebar).toBeHidden();
    await expect(page.locator("#get-v2-history-csv")).toBeInViewport();
  });
});
