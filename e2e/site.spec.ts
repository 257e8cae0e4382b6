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
