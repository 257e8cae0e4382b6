import { api, expect, expectNoPageOverflow, test, type E2EAccount } from "./fixtures";

/** A few real requests with the account's key, as a client library makes them: two answered, one refused. */
async function makeRequests(account: E2EAccount) {
  for (let i = 0; i < 2; i++) {
    expect((await api(`/v1.0/?url=${encodeURIComponent(`https://example.com/e2e-requests-${Date.now().toString(36)}-${i}`)}`, account.apiKey)).status).toBe(200);
  }
  expect((await api("/v1.0/?url=not-a-url", account.apiKey)).status).toBe(400);
}

test("lists the key's requests, filters them from the address, and opens one in the drawer", async ({ signedIn: page, account }) => {
  await makeRequests(account);
  await page.goto("/dashboard/requests");
  await expect(page.getByRole("heading", { name: "Requests", level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: "Requests" })).toHaveAttribute("aria-current", "page");
  const rows = page.getByTestId("request-row");
  // The three requests, beside what the dashboard itself asked the API with the key (its own requests are logged too).
  await expect(rows.filter({ hasText: "/v1.0/?url=" })).toHaveCount(3);
  await expect(page.locator("body")).not.toContainText(account.apiKey);
  await page.screenshot({ path: test.info().outputPath("requests.png"), fullPage: true });

  await page.getByLabel("Status").selectOption("4xx");
  await page.getByLabel("Endpoint").fill("/v1.0/");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/status=4xx/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("invalid_url");
  await expect(rows.first()).toContainText("400");

  // The filters live in the address: a reload keeps them.
  await page.reload();
  await expect(page.getByLabel("Status")).toHaveValue("4xx");
  await expect(rows).toHaveCount(1);

  await rows.first().getByRole("button").click();
  const drawer = page.getByTestId("request-drawer");
  await expect(drawer).toBeVisible();
  await expect(page).toHaveURL(/request=req_/);
  await expect(drawer).toContainText("invalid_url");
  await expect(drawer).toContainText("127.0.0.0/24");
  await expect(drawer).toContainText("url=not-a-url");
  await expect(drawer).not.toContainText(account.apiKey);
  await page.screenshot({ path: test.info().outputPath("requests-drawer.png") });
  // A link to the request opens it afresh.
  await page.reload();
  await expect(page.getByTestId("request-drawer")).toContainText("invalid_url");
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("request-drawer")).toHaveCount(0);
  await expect(page).not.toHaveURL(/request=/);

  await page.getByLabel("Status").selectOption("5xx");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText("No request matches these filters.")).toBeVisible();
  await page.getByRole("button", { name: "Clear them" }).click();
  await expect(rows.filter({ hasText: "/v1.0/?url=" })).toHaveCount(3);

  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: test.info().outputPath(`requests-1280-${colorScheme}.png`), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoPageOverflow(page);
    await page.screenshot({ path: test.info().outputPath(`requests-390-${colorScheme}.png`), fullPage: true });
  }
  await rows.first().getByRole("button").click();
  await expect(page.getByTestId("request-drawer")).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("requests-drawer-390-dark.png") });
});
