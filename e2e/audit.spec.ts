import type { Page } from "@playwright/test";
import { admin, createAccount, expect, expectNoPageOverflow, signIn, test } from "./fixtures";

/** What a change made from the page's own origin looks like to the dashboard's routes (a same-origin fetch). */
async function fromPage(page: Page, method: string, path: string, body: unknown) {
  const status = await page.evaluate(
    async ({ method, path, body }) => (await fetch(path, { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) })).status,
    { method, path, body },
  );
  expect(status).toBe(200);
}

const events = (page: Page) => page.getByRole("list", { name: "Audit events" }).getByRole("listitem");

test("the Audit page shows sign-ins, a failed one, and changes by the user and the command line, with filters in the URL", async ({ page }) => {
  const account = createAccount("free");
  // A wrong password first, through the real sign-in form: recorded for this account.
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(`${account.password}-wrong`);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Wrong email or password.")).toBeVisible();
  // An address nobody has: recorded for no one (nothing of it can show below).
  await page.getByLabel("Email").fill(`nobody-${Date.now()}@example.com`);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Wrong email or password.")).toBeVisible();
  await signIn(page, account);

  await fromPage(page, "PUT", "/api/dashboard/whitelist", { domains: ["example.com", "*.example.org"], enabled: false });
  // Through the API with the account's key and the dashboard's signed user: recorded as "you", never the secret.
  await fromPage(page, "POST", "/api/dashboard/webhooks", { url: "https://hooks.example.com/in", events: ["bulk.completed"], format: "standard" });
  admin("account:plan", "--email", account.email, "--plan", "plus");

  await page.goto("/dashboard/audit");
  await expect(page.getByRole("heading", { name: "Audit log" })).toBeVisible();
  await expect(events(page)).toHaveText([
    /The administrator \(command line\) changed the plan from free to plus/,
    /You added a webhook endpoint on hooks\.example\.com \(bulk\.completed\)/,
    /You changed the whitelist: \+2.*added \*\.example\.org, example\.com.*127\.0\.0\.0\/24/,
    /You signed in with a password/,
    /Someone tried to sign in with a wrong password/,
  ]);
  await expect(page.getByText(/whsec_/)).toHaveCount(0);

  await page.getByLabel("Who").selectOption("system");
  await expect(page).toHaveURL(/\?actor=system$/);
  await expect(events(page)).toHaveText([/changed the plan from free to plus/]);
  await page.reload();
  await expect(page.getByLabel("Who")).toHaveValue("system");
  await expect(events(page)).toHaveCount(1);

  await page.getByLabel("What").selectOption("email.changed");
  await expect(page).toHaveURL(/action=email\.changed/);
  await expect(page.getByText("Nothing matches these filters.")).toBeVisible();
  await page.getByRole("button", { name: "Show everything" }).click();
  await expect(events(page)).toHaveCount(5);

  await page.getByLabel("When").selectOption("1");
  await expect(page).toHaveURL(/days=1/);
  await expect(events(page)).toHaveCount(5);
});

test("the Audit page and its nav fit a phone and a small laptop", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const account = createAccount("free");
  await signIn(page, account);
  await page.goto("/dashboard/audit");
  await expect(events(page)).toHaveText([/You signed in with a password/]);
  await expectNoPageOverflow(page);
  await page.getByRole("button", { name: "Menu" }).click();
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Audit" }).click();
  await expect(page.getByRole("link", { name: "Audit", exact: true })).toHaveAttribute("aria-current", "page");
  // Below 1280 px the ten sections are behind the Menu button: inline they would push the page sideways.
  await page.setViewportSize({ width: 1024, height: 768 });
  await expect(page.getByRole("button", { name: "Menu" })).toBeVisible();
  await expectNoPageOverflow(page, 1024);
});
