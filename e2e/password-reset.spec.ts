import type { APIResponse, Page } from "@playwright/test";
import { E2E_BASE_URL } from "./env";
import {
  admin,
  captureAction,
  createAccount,
  expect,
  expectNoPageOverflow,
  mailsTo,
  replayAction,
  test,
  testClientAddress,
  waitForMail,
  withDatabase,
} from "./fixtures";

/**
 * Forgot and reset password through the browser, with the mail read from the e2e SMTP server. Each test is a
 * client address of its own (the limits count per address; the e2e server trusts X-Forwarded-For).
 */

const RESET_SUBJECT = /Reset your sharecount password/;
const CHANGED_SUBJECT = /Your sharecount password was changed/;

test.beforeEach(async ({ page }) => {
  await page.context().setExtraHTTPHeaders({ "X-Forwarded-For": testClientAddress() });
});

/** Asks for a link on the forgot page; answers what the page then says. */
async function askForLink(page: Page, email: string): Promise<string> {
  await page.goto("/forgot-password");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
  return page.getByRole("status").innerText();
}

async function submitNewPassword(page: Page, password: string, confirm = password) {
  await page.getByLabel("New password", { exact: true }).fill(password);
  await page.getByLabel("Repeat the new password").fill(confirm);
  await page.getByRole("button", { name: "Set new password" }).click();
}

async function signInAs(page: Page, email: string, password: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** The account's reset links now expire when they were made: the clock is an input, the row says when. */
function expireLinksOf(email: string) {
  withDatabase((db) =>
    db.prepare("UPDATE account_token SET expires_at = created_at WHERE account_id = (SELECT id FROM account WHERE email = ?)").run(email),
  );
}

test("forgot password → mail → new password twice → signed out everywhere → sign in with the new one only", async ({ page, browser }) => {
  const account = createAccount("free");
  // A browser signed in with the old password is signed out by the reset.
  const elsewhere = await browser.newContext({ baseURL: E2E_BASE_URL });
  const other = await elsewhere.newPage();
  await other.goto("/sign-in");
  await signInAs(other, account.email, account.password);
  await expect(other).toHaveURL(/\/dashboard$/);

  await page.goto("/sign-in");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByLabel("Email").fill(account.email.toUpperCase());
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeFocused();

  const { mail, link } = await waitForMail(account.email, RESET_SUBJECT);
  expect(link).toMatch(new RegExp(`^${E2E_BASE_URL}/reset-password\\?token=[A-Za-z0-9_-]{43}$`));
  expect(mail.html).toContain(link);
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  await expect(page.getByText(account.email, { exact: true })).toBeVisible();

  // The two must match, and the sign-up rule holds; each refusal is said at its field.
  await submitNewPassword(page, "a new and long password", "a new and long passwork");
  await expect(page.locator("#confirm-error")).toHaveText("The two passwords differ.");
  await expect(page.getByLabel("Repeat the new password")).toHaveAttribute("aria-invalid", "true");
  await submitNewPassword(page, "password12");
  await expect(page.locator("#password-error")).toContainText("one of the most common passwords");
  await expect(page.getByLabel("New password", { exact: true })).toBeFocused();

  const newPassword = `reset-${Date.now().toString(36)}-long-enough`;
  await submitNewPassword(page, newPassword);
  await expect(page).toHaveURL(/\/sign-in\?reset=done$/);
  await expect(page.getByRole("status")).toContainText("Your password was changed");

  await signInAs(page, account.email, account.password);
  await expect(page.locator("form").getByRole("alert")).toHaveText("Wrong email or password.");
  await signInAs(page, account.email, newPassword);
  await expect(page).toHaveURL(/\/dashboard$/);

  // The other browser's session ended with the old password.
  await other.goto("/dashboard/settings");
  await expect(other).toHaveURL(/\/sign-in/);
  await elsewhere.close();

  const notice = await waitForMail(account.email, CHANGED_SUBJECT);
  expect(notice.mail.autoSubmitted).toBe("auto-generated");
  expect(notice.link).toBe(`${E2E_BASE_URL}/forgot-password`);

  // The link was used: opening it again says so, and offers a new one (never an error page).
  const again = await page.goto(link);
  expect(again?.status()).toBe(200);
  await expect(page.getByRole("heading", { name: "This link was already used" })).toBeVisible();
  await page.getByRole("link", { name: "Send me a new link" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
});

test("an unknown address gets the same words as a known one, and no mail", async ({ page }) => {
  const known = createAccount("free");
  const unknown = `e2e-nobody-${Date.now().toString(36)}@example.com`;
  const toUnknown = await askForLink(page, unknown);
  const toKnown = await askForLink(page, known.email);
  expect(toUnknown).toBe(toKnown);
  expect(toKnown).toContain("If an account uses that address");
  // Mail is sent in the order it was queued: once the known address's has arrived, any for the unknown one would have.
  await waitForMail(known.email, RESET_SUBJECT);
  expect(await mailsTo(unknown)).toEqual([]);
});

test("an expired link, and one that expires while its form is open, get a clear page; the password stays", async ({ page }) => {
  const account = createAccount("free");
  const link = String(admin("account:reset-link", "--email", account.email).link);
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  expireLinksOf(account.email);
  await submitNewPassword(page, "a new and long password");
  await expect(page.getByRole("heading", { name: "This link has expired" })).toBeVisible();
  await expect(page.getByText("Reset links work for 60 minutes.")).toBeVisible();

  const reopened = await page.goto(link);
  expect(reopened?.status()).toBe(200);
  await expect(page.getByRole("heading", { name: "This link has expired" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Send me a new link" })).toHaveAttribute("href", "/forgot-password");

  // The old password still works: nothing was changed.
  await page.goto("/sign-in");
  await signInAs(page, account.email, account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("an unknown, missing or oversized token gets the clear page, never an error", async ({ page }) => {
  for (const path of ["/reset-password?token=not-a-token", "/reset-password", `/reset-password?token=${"x".repeat(5000)}`]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    await expect(page.getByRole("heading", { name: "This link does not work" }), path).toBeVisible();
    await expect(page.getByRole("link", { name: "Send me a new link" }), path).toBeVisible();
  }
});

test.describe("limits, taken before the work", () => {
  const says = async (response: APIResponse) => {
    const body = await response.text();
    if (response.status() !== 200) return `HTTP ${response.status()}`;
    if (body.includes("Too many requests from your network")) return "too many";
    if (/"sent":true/.test(body)) return "sent";
    return `unexpected: ${body.slice(0, 200)}`;
  };
  const forgotAction = (page: Page) =>
    captureAction(page, "/forgot-password", async () => {
      await askForLink(page, "capture-forgot@example.com");
    });

  test("14 simultaneous requests from one client: 10 are answered, 4 told to wait", async ({ page }) => {
    const action = await forgotAction(page);
    const client = testClientAddress();
    const stamp = Date.now().toString(36);
    const answers = await Promise.all(
      Array.from({ length: 14 }, async (_, i) => says(await replayAction(page.request, action, { "capture-forgot@example.com": `e2e-burst-${stamp}-${i}@example.com` }, client))),
    );
    expect(answers.sort()).toEqual([...Array(10).fill("sent"), ...Array(4).fill("too many")].sort());
  });

  test("5 simultaneous requests for one address from 5 clients: the same answer to each, and 3 mails", async ({ page }) => {
    const account = createAccount("free");
    const action = await forgotAction(page);
    const answers = await Promise.all(
      Array.from({ length: 5 }, async () => says(await replayAction(page.request, action, { "capture-forgot@example.com": account.email }, testClientAddress()))),
    );
    expect(answers).toEqual(Array(5).fill("sent"));
    const queued = withDatabase((db) =>
      db.prepare<[string], { n: number }>("SELECT count(*) AS n FROM mail_message WHERE recipient = ? AND kind = 'password_reset'").get(account.email)!.n,
    );
    expect(queued).toBe(3);
  });

  test("a cross-site post of the form is refused and queues nothing", async ({ page }) => {
    const account = createAccount("free");
    const action = await forgotAction(page);
    const forged = { ...action, headers: { ...action.headers, origin: "https://evil.example", "sec-fetch-site": "cross-site" } };
    const response = await replayAction(page.request, forged, { "capture-forgot@example.com": account.email }, testClientAddress());
    expect(response.status()).toBe(403);
    const queued = "SELECT count(*) AS n FROM mail_message WHERE recipient = ? AND kind LIKE 'password_reset%'";
    expect(withDatabase((db) => db.prepare<[string], { n: number }>(queued).get(account.email)!.n)).toBe(0);
  });

  test("20 looks at reset links an hour per client; the 21st is told to wait", async ({ page }) => {
    const client = { "X-Forwarded-For": testClientAddress() };
    for (let i = 0; i < 20; i++) {
      expect(await (await page.request.get(`/reset-password?token=guess-${i}`, { headers: client })).text()).toContain("This link does not work");
    }
    const limited = await page.request.get("/reset-password?token=guess-21", { headers: client });
    expect(limited.status()).toBe(200);
    expect(await limited.text()).toMatch(/Too many tries.*Try again in \d+ minute/s);
  });
});

// One test per width and scheme: each asks the command line for a link of its own.
for (const [name, width, height] of [
  ["desktop", 1280, 800],
  ["phone", 390, 844],
] as const) {
  for (const colorScheme of ["light", "dark"] as const) {
    test(`screenshots (${name}, ${colorScheme})`, async ({ page }) => {
      const account = createAccount("free");
      const link = String(admin("account:reset-link", "--email", account.email).link);
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme });
      const shots: [string, () => Promise<unknown>][] = [
        ["forgot-password", () => page.goto("/forgot-password")],
        ["forgot-password-sent", () => askForLink(page, `e2e-shot-${Date.now().toString(36)}@example.com`)],
        ["reset-password", () => page.goto(link)],
        [
          "reset-password-expired",
          async () => {
            expireLinksOf(account.email);
            await page.goto(link);
          },
        ],
        ["sign-in-password-changed", () => page.goto("/sign-in?reset=done")],
      ];
      for (const [shot, open] of shots) {
        await open();
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
        await expectNoPageOverflow(page, width);
        const file = test.info().outputPath(`${shot}-${name}-${colorScheme}.png`);
        await page.screenshot({ path: file, fullPage: true });
        await test.info().attach(`${shot}-${name}-${colorScheme}`, { path: file, contentType: "image/png" });
      }
    });
  }
}
