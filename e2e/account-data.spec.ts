import fs from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { api, expect, expectNoPageOverflow, test, trackByApi, waitForMail, withDatabase } from "./fixtures";

/** Settings → Export and Settings → Delete account, in Chromium against the app as `npm start` runs it. */

const deleteButton = (page: Page) => page.getByRole("button", { name: "Delete account…" });
const dialog = (page: Page) => page.getByRole("dialog", { name: "Delete your account?" });

/** axe on what the page shows now, in light and in dark. */
async function expectNoViolations(page: Page, what: string) {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`), `${what} in ${colorScheme}`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: "light" });
}

test("Settings → Export downloads one JSON file of the account, its tracked URLs in it", async ({ signedIn: page, account }) => {
  const urls = [`https://example.com/export-${Date.now()}-a`, `https://example.com/export-${Date.now()}-b`];
  await trackByApi(account, urls);
  await page.goto("/dashboard/settings");
  const downloaded = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export my data" }).click();
  const download = await downloaded;
  expect(download.suggestedFilename()).toBe(`sharecount-export-${account.email}-${new Date().toISOString().slice(0, 10)}.json`);
  const doc = JSON.parse(fs.readFileSync(await download.path(), "utf8"));
  expect(doc).toMatchObject({ format: "sharecount-export", profile: { email: account.email, has_password: true }, plan: { name: "business" } });
  expect(doc.tracked_urls.map((t: { url: string }) => t.url)).toEqual(urls);
  expect(JSON.stringify(doc)).not.toContain(account.apiKey);

  await page.getByRole("heading", { name: "Export your data" }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath("account-data.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoPageOverflow(page);
  await page.screenshot({ path: test.info().outputPath("account-data-phone.png"), fullPage: true });
});

test("the delete dialog says what goes, passes axe in light and dark, fits a phone, and refuses a wrong password", async ({ signedIn: page, account }) => {
  await page.goto("/dashboard/settings");
  await deleteButton(page).click();
  await expect(dialog(page)).toBeVisible();
  await expect(dialog(page)).toContainText("tracked URLs");
  await expectNoViolations(page, "the delete dialog");
  await page.screenshot({ path: test.info().outputPath("delete-dialog.png") });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: test.info().outputPath("delete-dialog-phone-dark.png") });

  await dialog(page).getByLabel("Your password").fill(`${account.password}-wrong`);
  await dialog(page).getByRole("button", { name: "Delete my account" }).click();
  await expect(dialog(page).getByRole("alert")).toHaveText("The password is not right.");
  expect((await api("/v1.0/quota", account.apiKey)).status).toBe(200);
  await dialog(page).getByRole("button", { name: "Cancel" }).click();
  await expect(dialog(page)).toBeHidden();
});

test("Settings → Delete account with the password deletes, signs out, kills the key and mails a confirmation", async ({ signedIn: page, account }) => {
  await trackByApi(account, [`https://example.com/deleted-${Date.now()}`]);
  await page.goto("/dashboard/settings");
  await deleteButton(page).click();
  await dialog(page).getByLabel("Your password").fill(account.password);
  await dialog(page).getByRole("button", { name: "Delete my account" }).click();
  await expect(page).toHaveURL(/\/account-deleted$/);
  await expect(page.getByRole("heading", { name: "Your account was deleted" })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("account-deleted.png"), fullPage: true });
  expect((await page.context().cookies()).map((cookie) => cookie.name)).not.toContain("authjs.session-token");

  expect((await api("/v1.0/quota", account.apiKey)).status).toBe(401);
  await page.goto("/dashboard/settings");
  await expect(page).toHaveURL(/\/sign-in\?next=/);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Wrong email or password." })).toBeVisible();

  const { mail } = await waitForMail(account.email, /deleted/);
  expect(mail.subject).toBe("Your sharecount account was deleted");
  expect(mail.text).toContain("no longer works");
});

test("an account without a password confirms with its address instead", async ({ signedIn: page, account }) => {
  // As an account made by a GitHub or Google sign-in: signed in, with no password.
  withDatabase((db) => db.prepare("UPDATE account SET password_hash = NULL WHERE email = ?").run(account.email));
  await page.goto("/dashboard/settings");
  await deleteButton(page).click();
  const typed = dialog(page).getByLabel(`Type your email address (${account.email}) to confirm`);
  await typed.fill(`not-${account.email}`);
  await dialog(page).getByRole("button", { name: "Delete my account" }).click();
  await expect(dialog(page).getByRole("alert")).toHaveText("Type your account's email address exactly to confirm.");
  await typed.fill(account.email.toUpperCase());
  await dialog(page).getByRole("button", { name: "Delete my account" }).click();
  await expect(page).toHaveURL(/\/account-deleted$/);
  expect((await api("/v1.0/quota", account.apiKey)).status).toBe(401);
});

test("password guesses are limited like sign-in: the sixth in 15 minutes is refused before it is checked", async ({ signedIn: page, account }) => {
  await page.goto("/dashboard/settings");
  const statuses = await page.evaluate(async (password) => {
    const attempt = (guess: string) =>
      fetch("/api/dashboard/account/delete", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ password: guess }) });
    const wrong = await Promise.all(Array.from({ length: 5 }, (_, i) => attempt(`guess-${i}`)));
    return [...wrong.map((r) => r.status), (await attempt(password)).status];
  }, account.password);
  expect(statuses).toEqual([422, 422, 422, 422, 422, 429]);
  expect((await api("/v1.0/quota", account.apiKey)).status).toBe(200);
  // Still signed in: a refusal ends nothing.
  await page.reload();
  await expect(page).toHaveURL(/\/dashboard\/settings$/);
});
