import type { Browser, Page } from "@playwright/test";
import { E2E_BASE_URL } from "./env";
import {
  admin,
  createAccount,
  expect,
  expectNoPageOverflow,
  mailsTo,
  signIn,
  signOut,
  test,
  testClientAddress,
  waitForMail,
  withDatabase,
  type E2EAccount,
} from "./fixtures";

/**
 * Confirming the account's address, changing it, and the security notices, through the pages and the mail
 * that really arrives (the e2e SMTP server, e2e/mail-sink.ts).
 */

const banner = (page: Page) => page.getByRole("region", { name: "Confirm your email address" });
const emailCard = (page: Page) => page.locator("section").filter({ has: page.getByRole("heading", { name: "Email address", exact: true }) });

/** A browser of its own, coming from its own address (sign-up and sign-in limits count per address). */
async function freshBrowser(browser: Browser, userAgent?: string, address = testClientAddress()) {
  const context = await browser.newContext({ baseURL: E2E_BASE_URL, userAgent, extraHTTPHeaders: { "X-Forwarded-For": address } });
  return context.newPage();
}

async function screenshots(page: Page, name: string) {
  for (const [size, viewport] of [
    ["desktop", { width: 1280, height: 800 }],
    ["phone", { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(viewport);
    await expectNoPageOverflow(page, viewport.width);
    const file = test.info().outputPath(`${name}-${size}.png`);
    await page.screenshot({ path: file, fullPage: true });
    await test.info().attach(`${name}-${size}`, { path: file, contentType: "image/png" });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

const unique = (label: string) => `e2e-${label}-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}@example.com`;

test("sign-up mails a link; the banner offers it again (rate limited) until the newest link is opened", async ({ browser }) => {
  const page = await freshBrowser(browser);
  const email = unique("verify");
  await page.goto("/sign-up");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("a-long-password-for-e2e");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(banner(page)).toContainText(`Open the link we sent to ${email}`);

  const first = await waitForMail(email, /^Confirm your email address/);
  expect(first.link).toMatch(new RegExp(`^${E2E_BASE_URL}/verify-email\\?token=[\\w-]{43}$`));
  expect(first.mail.html).toContain(first.link);
  // The dashboard works meanwhile.
  await expect(page.getByTestId("key-summary")).toBeVisible();
  await screenshots(page, "email-banner");

  const resend = banner(page).getByRole("button", { name: "Send the link again" });
  for (let sent = 2; sent <= 4; sent++) {
    await resend.click();
    await expect(banner(page).getByRole("status")).toHaveText(`A new link is on its way to ${email}. It replaces the earlier ones.`);
    await expect.poll(async () => (await mailsTo(email)).length).toBe(sent);
    await expect(resend).toBeEnabled();
  }
  await resend.click();
  await expect(banner(page).getByRole("status")).toHaveText(/^Too many links sent\. Try again in \d+ minute\(s\)\.$/);
  expect(await mailsTo(email)).toHaveLength(4);

  // Only the newest link works.
  const newest = await waitForMail(email, /^Confirm your email address/);
  expect(newest.link).not.toBe(first.link);
  await page.goto(first.link);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("This link does not work");
  await page.goto(newest.link);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Email address confirmed");
  await expect(page.getByText(`${email} is confirmed.`)).toBeVisible();
  await screenshots(page, "email-confirmed");
  await page.getByRole("link", { name: "Go to the dashboard" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId("key-summary")).toBeVisible();
  await expect(banner(page)).toHaveCount(0);
  expect(admin("account:show", "--email", email)).toMatchObject({ email_verified: true });

  await page.goto(newest.link);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("This link was used already");
  await page.context().close();
});

test("changing the address asks for the password, and refuses another account's address without saying so", async ({ signedIn: page, account }) => {
  const other = createAccount("free");
  await page.goto("/dashboard/settings");
  const card = emailCard(page);
  const change = card.getByRole("button", { name: "Change email address" });
  await change.click();
  await expect(card.getByLabel("New email address")).toHaveAttribute("aria-invalid", "true");
  await expect(card.getByText("Enter the new address.")).toBeVisible();

  await card.getByLabel("New email address").fill(unique("typo"));
  await card.getByLabel("Your password").fill("not-the-password");
  await change.click();
  await expect(card.getByRole("alert")).toHaveText("The password is not right.");
  await card.getByLabel("New email address").fill(other.email.toUpperCase());
  await card.getByLabel("Your password").fill(account.password);
  await change.click();
  await expect(card.getByRole("alert")).toHaveText("This address cannot be used for your account. Check it, or choose another.");
  await card.getByLabel("New email address").fill(account.email);
  await change.click();
  await expect(card.getByRole("alert")).toHaveText("That is your address already.");
  await expect(card.getByRole("status")).toHaveText("");
  // Nothing was queued for either: only their own confirmation links (mail is queued in the request's transaction).
  const queued = (email: string) =>
    withDatabase((db) => db.prepare<[string], { kind: string }>("SELECT kind FROM mail_message WHERE recipient = ?").all(email).map((m) => m.kind));
  expect(queued(other.email)).toEqual(["verify_email"]);
  expect(queued(account.email)).toEqual(["verify_email"]);
});

test("changing the address: a link to the new one, a notice to the old, and nothing moves until the link is opened", async ({ browser }) => {
  const account = createAccount("free");
  const page = await freshBrowser(browser);
  await signIn(page, account);
  await page.goto("/dashboard/settings");
  const card = emailCard(page);
  await expect(card).toContainText(`Your account uses ${account.email}`);
  await expect(card.getByTestId("email-status")).toHaveText("Not confirmed");

  const change = card.getByRole("button", { name: "Change email address" });
  const next = unique("moved");
  await card.getByLabel("New email address").fill(next);
  await card.getByLabel("Your password").fill(account.password);
  await change.click();
  await expect(card.getByRole("status")).toHaveText(`Waiting for ${next}: open the link we sent there. Until then your account keeps ${account.email}.`);
  const confirm = await waitForMail(next, /^Confirm your new email address/);
  expect(confirm.link).toMatch(new RegExp(`^${E2E_BASE_URL}/change-email\\?token=[\\w-]{43}$`));
  expect(confirm.mail.html).toContain(confirm.link);
  const notice = await waitForMail(account.email, /is being changed$/);
  expect(notice.mail.text).toContain(next);
  expect(notice.mail.autoSubmitted).toBe("auto-generated");

  // Until the link is opened, the old address is the account's.
  await page.reload();
  await expect(card).toContainText(`Your account uses ${account.email}`);
  await expect(card.getByRole("status")).toContainText(`Waiting for ${next}`);
  await expect(page.getByTestId("account-email")).toHaveText(account.email);
  await screenshots(page, "email-settings");

  await page.goto(confirm.link);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Email address changed");
  await page.goto("/dashboard/settings");
  await expect(card).toContainText(`Your account uses ${next}`);
  await expect(card.getByTestId("email-status")).toHaveText("Confirmed");
  await expect(card.getByRole("status")).toHaveText("");
  await expect(page.getByTestId("account-email")).toHaveText(next);
  await expect(banner(page)).toHaveCount(0);
  const changed = await waitForMail(account.email, /was changed$/);
  expect(changed.mail.text).toContain(next);

  // The new address signs in; the old one no longer does.
  await signOut(page);
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator("form").getByRole("alert")).toHaveText("Wrong email or password.");
  await signIn(page, { email: next, password: account.password });
  await page.context().close();
});

test("rolling a key mails a notice that names it and says how long the old one works (key:roll's is tested in test/admin/cli-mail.test.ts)", async ({ signedIn: page, account }) => {
  await page.goto("/dashboard/keys");
  await page.getByRole("button", { name: "Roll…" }).click();
  const dialog = page.getByRole("dialog", { name: "Roll “Default”?" });
  await dialog.getByLabel("The old key").selectOption({ label: "Works on for an hour" });
  await dialog.getByRole("button", { name: "Roll key" }).click();
  const shown = page.getByRole("dialog", { name: "The new key for “Default”" });
  await expect(shown.getByTestId("new-api-key")).toHaveText(/^[0-9a-f]{40}$/);
  const newKey = (await shown.getByTestId("new-api-key").textContent())!;
  const { mail, link } = await waitForMail(account.email, /API key was rolled$/);
  expect(link).toBe(`${E2E_BASE_URL}/dashboard/keys`);
  expect(mail.text).toContain('"Default"');
  expect(mail.text).toMatch(/The old key keeps working until \d+ \w+ \d{4} at \d\d:\d\d UTC/);
  expect(mail.text).not.toContain(newKey);
  expect(mail.text).not.toContain(account.apiKey);
  expect(mail.autoSubmitted).toBe("auto-generated");
});

test("a sign-in from a new browser mails the account; the first one and a known one do not", async ({ browser }) => {
  const account: E2EAccount = createAccount("free");
  const notices = async () => (await mailsTo(account.email)).filter((m) => m.subject === "A new sign-in to your sharecount account");
  const firefox = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.7; rv:133.0) Gecko/20100101 Firefox/133.0";
  for (const [userAgent, address] of [
    [undefined, "198.18.7.1"],
    [undefined, "198.18.9.9"],
  ] as const) {
    const page = await freshBrowser(browser, userAgent, address);
    await signIn(page, account);
    await page.context().close();
  }
  const page = await freshBrowser(browser, firefox, "198.18.7.1");
  await signIn(page, account);
  await page.context().close();
  const { mail, link } = await waitForMail(account.email, /^A new sign-in/);
  expect(mail.text).toContain("Firefox on macOS");
  expect(mail.text).toContain("198.18.0.0/16");
  expect(link).toBe(`${E2E_BASE_URL}/dashboard/settings`);
  expect(await notices()).toHaveLength(1);
});
