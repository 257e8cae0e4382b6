import type { Browser, Page } from "@playwright/test";
import { createAccount, expect, expectNoPageOverflow, signIn, signOut, test, type E2EAccount, waitForMail, withDatabase } from "./fixtures";

/** Another browser (its own cookies) signed in as the account. */
async function otherBrowser(browser: Browser, account: E2EAccount): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, account);
  return page;
}

function sessionIdsOf(email: string): string[] {
  return withDatabase((db) =>
    db
      .prepare<[string], { id: string }>("SELECT s.id FROM session s JOIN account a ON a.id = s.account_id WHERE a.email = ?")
      .all(email)
      .map((row) => row.id),
  );
}

const sessionsList = (page: Page) => page.getByRole("list", { name: "Sessions" }).getByRole("listitem");

test("changes the password: this session stays, other sessions end, the new password signs in and the old one no longer does", async ({
  signedIn: page,
  account,
  browser,
}) => {
  const other = await otherBrowser(browser, account);
  await page.goto("/dashboard/settings");
  await page.getByLabel("Current password").fill("not-the-password");
  await page.getByLabel("New password", { exact: true }).fill("short");
  await page.getByLabel("Confirm new password").fill("different");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByLabel("New password", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("The two new passwords differ.")).toBeVisible();

  const newPassword = `new-${account.password}`;
  await page.getByLabel("New password", { exact: true }).fill(newPassword);
  await page.getByLabel("Confirm new password").fill(newPassword);
  await page.getByRole("button", { name: "Change password" }).click();
  const wrongPassword = page.getByRole("alert").filter({ hasText: "The current password is not right." });
  await expect(wrongPassword).toBeVisible();
  // The next submit is answered afresh: one stopped in the browser (passwords differ) shows only its own error.
  await page.getByLabel("Confirm new password").fill(`${newPassword}-typo`);
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("The two new passwords differ.")).toBeVisible();
  await expect(wrongPassword).toBeHidden();
  await page.getByLabel("Confirm new password").fill(newPassword);

  await page.getByLabel("Current password").fill(account.password);
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Password changed." })).toHaveText(
    "Password changed. You are still signed in on this device; 1 other session was signed out.",
  );
  await page.reload();
  await expect(page).toHaveURL(/\/dashboard\/settings$/);
  await other.goto("/dashboard");
  await expect(other).toHaveURL(/\/sign-in$/);
  await other.context().close();

  await signOut(page);
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Wrong email or password." })).toBeVisible();
  await signIn(page, { email: account.email, password: newPassword });
  // The account's address is told, in case it was not its owner.
  const { mail } = await waitForMail(account.email, /Your sharecount password was changed/);
  expect(mail.autoSubmitted).toBe("auto-generated");
});

test("lists this account's sessions; revoking one signs that browser out on its next request", async ({ signedIn: page, account, browser }) => {
  const other = await otherBrowser(browser, account);
  await page.goto("/dashboard/settings");
  await expect(sessionsList(page)).toHaveCount(2);
  const current = sessionsList(page).filter({ hasText: "This device" });
  await expect(current).toHaveCount(1);
  await expect(current).toContainText("Chrome on Linux");
  await expect(current).toContainText(/Last seen (just now|\d+ min ago)/);
  await expect(current.getByRole("button")).toHaveCount(0);

  await page.screenshot({ path: test.info().outputPath("settings.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoPageOverflow(page);
  await page.screenshot({ path: test.info().outputPath("settings-phone.png"), fullPage: true });

  await sessionsList(page).filter({ hasNotText: "This device" }).getByRole("button", { name: /^Sign out Chrome on Linux/ }).click();
  await expect(page.getByRole("status").filter({ hasText: "Signed out Chrome on Linux." })).toBeVisible();
  await expect(sessionsList(page)).toHaveCount(1);
  await expect(page.getByText("No other device is signed in.")).toBeVisible();

  await other.goto("/dashboard");
  await expect(other).toHaveURL(/\/sign-in$/);
  // This browser is untouched.
  await page.reload();
  await expect(page).toHaveURL(/\/dashboard\/settings$/);
  await other.context().close();
});

test("signs out everywhere else", async ({ signedIn: page, account, browser }) => {
  const others = [await otherBrowser(browser, account), await otherBrowser(browser, account)];
  await page.goto("/dashboard/settings");
  await expect(sessionsList(page)).toHaveCount(3);
  await page.getByRole("button", { name: "Sign out everywhere else" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Signed out everywhere else." })).toBeVisible();
  await expect(sessionsList(page)).toHaveCount(1);
  await expect(page.getByRole("button", { name: "Sign out everywhere else" })).toBeDisabled();
  for (const other of others) {
    // A click in the already loaded page: its next request finds no session.
    await other.getByRole("link", { name: "Settings", exact: true }).click();
    await expect(other).toHaveURL(/\/sign-in\?next=%2Fdashboard%2Fsettings$/);
    await other.context().close();
  }
  await page.reload();
  await expect(page).toHaveURL(/\/dashboard\/settings$/);
});

test("another account's session cannot be seen or signed out", async ({ signedIn: page, browser }) => {
  const stranger = createAccount("free");
  const strangerPage = await otherBrowser(browser, stranger);
  const [strangerSession] = sessionIdsOf(stranger.email);

  await page.goto("/dashboard/settings");
  const answer = await page.evaluate(async (id) => {
    const response = await fetch(`/api/dashboard/sessions/${id}`, { method: "DELETE" });
    return { status: response.status, list: await (await fetch("/api/dashboard/sessions")).json() };
  }, strangerSession!);
  expect(answer.status).toBe(404);
  expect(JSON.stringify(answer.list)).not.toContain(strangerSession!);
  expect(sessionIdsOf(stranger.email)).toEqual([strangerSession]);
  await strangerPage.reload();
  await expect(strangerPage).toHaveURL(/\/dashboard$/);
  await strangerPage.context().close();

  // Signed out, the routes answer 401 and nothing else.
  const anonymous = await browser.newContext();
  expect((await anonymous.request.get(new URL("/api/dashboard/sessions", page.url()).href)).status()).toBe(401);
  await anonymous.close();
});
