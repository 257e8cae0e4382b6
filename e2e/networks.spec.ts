import { E2E_SANDBOX_URL } from "./env";
import { api, createAccount, expect, expectNoPageOverflow, signIn, test } from "./fixtures";

/**
 * The Networks panel: every network's state in plain words, and a network the sandbox throttles shown as
 * paused, on the panel and as an incident line on the overview. Tumblr is the network throttled: no other
 * spec asserts on its counts.
 */

async function tumblrKnobs(knobs: { mode: string; retryAfterSeconds?: number }) {
  const response = await fetch(`${E2E_SANDBOX_URL}/__sandbox/more/knobs`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ tumblr: knobs }),
  });
  expect(response.status).toBe(200);
}

test("shows a network the sandbox throttles as paused, on the panel and on the overview", async ({ signedIn: page, account }) => {
  await page.goto("/dashboard/networks");
  await expect(page.getByRole("heading", { name: "Networks", level: 1 })).toBeVisible();
  await expect(page.getByTestId("network-list").locator("li")).toHaveCount(8);
  await expect(page.getByTestId("network-reddit").getByTestId("network-state")).toHaveText("Working");

  await tumblrKnobs({ mode: "throttle", retryAfterSeconds: 120 });
  try {
    const answer = await api(`/v2/counts?url=${encodeURIComponent(`https://networks-e2e.example.com/${Date.now()}`)}&networks=tumblr`, account.apiKey);
    expect((answer.body as { networks: { tumblr: { status: string } } }).networks.tumblr.status).toBe("unavailable");

    await page.reload();
    const tumblr = page.getByTestId("network-tumblr");
    await expect(tumblr.getByTestId("network-state")).toHaveText("Paused");
    await expect(tumblr).toContainText(/asked again in (1|2) min/);
    await expect(tumblr.getByTestId("network-figures")).toContainText(/Errors, last hour[1-9]/);
    await page.screenshot({ path: test.info().outputPath("networks.png"), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoPageOverflow(page);
    await page.screenshot({ path: test.info().outputPath("networks-phone.png"), fullPage: true });

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto("/dashboard");
    const incident = page.getByTestId("network-incident").filter({ hasText: "Tumblr" });
    await expect(incident).toContainText("is paused");
    await incident.getByRole("link", { name: "Network status" }).click();
    await expect(page).toHaveURL(/\/dashboard\/networks$/);
  } finally {
    await tumblrKnobs({ mode: "ok" });
  }
});

test("the Networks setting chooses what the lookup and API v2 show", async ({ signedIn: page, account }) => {
  await page.goto("/dashboard/settings");
  const card = page.getByTestId("shown-networks");
  await expect(card.getByRole("checkbox")).toHaveCount(8);
  for (const name of ["Facebook", "Pinterest", "Hacker News", "Bluesky", "OK.ru", "Tumblr"]) await card.getByLabel(name, { exact: true }).uncheck();
  await page.getByRole("button", { name: "Save networks" }).click();
  await expect(page.getByRole("button", { name: "Save networks" })).toBeDisabled();
  await page.screenshot({ path: test.info().outputPath("settings-networks.png"), fullPage: true });

  const answer = await api(`/v2/counts?url=${encodeURIComponent(`https://networks-e2e.example.com/setting-${Date.now()}`)}`, account.apiKey);
  expect(Object.keys((answer.body as { networks: object }).networks)).toEqual(["reddit", "vk"]);

  await page.goto("/dashboard");
  await page.getByLabel("URL", { exact: true }).fill(`https://networks-e2e.example.com/lookup-${Date.now()}`);
  await page.getByRole("button", { name: "Look up" }).click();
  await expect(page.getByTestId("lookup-network-reddit")).toBeVisible();
  await expect(page.getByTestId("lookup-network-vk")).toBeVisible();
  await expect(page.getByTestId("lookup-counts").locator("dl")).toHaveCount(2);
});

test("counts the calls a spent budget skipped beside the errors, and says what skipped means", async ({ page }) => {
  // Facebook allows 10 calls per URL an hour: the 11th query of one URL, with the cache off, is not sent.
  const account = createAccount("dedicated");
  const url = encodeURIComponent(`https://networks-e2e.example.com/skipped-${Date.now()}`);
  for (let i = 0; i < 11; i++) expect((await api(`/v1.0/?url=${url}&custom_ttl=0`, account.apiKey)).status).toBe(200);

  await signIn(page, account);
  await page.goto("/dashboard/networks");
  const facebook = page.getByTestId("network-facebook");
  await expect(facebook.getByTestId("network-skipped")).toContainText(/Skipped, last hour[1-9]/);
  await expect(facebook.getByTestId("network-figures")).toContainText("Errors, last hour");
  await expect(page.getByTestId("skipped-meaning")).toContainText("Skipped calls were not made: the network's budget was spent");
  await expect(facebook.getByText("Skipped, last hour")).toHaveAccessibleDescription(/Skipped calls were not made/);
  await page.screenshot({ path: test.info().outputPath("networks-skipped.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoPageOverflow(page);
  await page.screenshot({ path: test.info().outputPath("networks-skipped-phone.png"), fullPage: true });
});
