import type { Page } from "@playwright/test";
import { E2E_BASE_URL } from "./env";
import { createAccount, expect, lookAt, signIn, test, testClientAddress, waitForMail } from "./fixtures";

const members = (page: Page) => page.getByTestId("member");

/** A dashboard route called from the signed-in page, as its own scripts would (same origin, its cookies). */
async function dashboardCall(page: Page, method: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  return page.evaluate(
    async ({ method, path, body, headers }) => {
      const response = await fetch(path, { method, headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
      return { status: response.status, body: await response.json() };
    },
    { method, path, body, headers },
  );
}

test("an owner invites a new address; it signs up from the link, joins as developer, and is held to that role", async ({ signedIn: owner, account, browser }) => {
  const invited = `e2e-invited-${Date.now().toString(36)}@example.com`;
  await owner.goto("/dashboard/members");
  await expect(owner.getByRole("heading", { name: "Members", level: 1 })).toBeVisible();
  await expect(members(owner)).toHaveCount(1);
  await expect(members(owner)).toContainText("Holder of the account");
  await owner.getByRole("textbox", { name: "Email address" }).fill(invited);
  await owner.getByLabel("Role", { exact: true }).selectOption("developer");
  await owner.getByRole("button", { name: "Send invite" }).click();
  await expect(owner.getByTestId("invite")).toContainText(invited);
  await lookAt(owner, "members-owner");

  // Resent: a new link in a new mail (the button posts no body).
  const first = await waitForMail(invited, /invited you to a sharecount account/);
  await owner.getByTestId("invite").getByRole("button", { name: "Resend" }).click();
  await expect.poll(async () => (await waitForMail(invited, /invited you to a sharecount account/)).link, { timeout: 20_000 }).not.toBe(first.link);
  const { link } = await waitForMail(invited, /invited you to a sharecount account/);
  expect(link).toMatch(new RegExp(`^${E2E_BASE_URL}/dashboard/invite/[\\w-]{43}$`));

  // A signed-out browser: sent to sign in, told why, and brought back after creating an account.
  const context = await browser.newContext({ extraHTTPHeaders: { "X-Forwarded-For": testClientAddress() } });
  const page = await context.newPage();
  await page.goto(link);
  await expect(page).toHaveURL(/\/sign-in\?next=/);
  await expect(page.getByText("You were invited to a sharecount account.")).toBeVisible();
  await page.getByRole("link", { name: "Create a free account" }).click();
  await expect(page.getByRole("heading", { name: "Create a free account" })).toBeVisible();
  await page.getByLabel("Email").fill(invited);
  await page.getByLabel("Password").fill("a long enough password 123");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(link);
  await expect(page.getByText(`as Developer`)).toBeVisible();
  await page.getByRole("button", { name: "Join the account" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId("account-email")).toHaveText(account.email);
  await expect(page.getByTestId("member-banner")).toContainText(`You are working in ${account.email} as Developer`);

  // The link works once.
  await page.goto(link);
  await expect(page.getByText("has already been used")).toBeVisible();

  // A developer may make keys, not change the whitelist or invite.
  expect(await dashboardCall(page, "PUT", "/api/dashboard/whitelist", { domains: [], enabled: false })).toMatchObject({ status: 403, body: { error: "forbidden" } });
  expect(await dashboardCall(page, "POST", "/api/dashboard/invites", { email: "x@example.com", role: "viewer" })).toMatchObject({ status: 403 });
  expect((await dashboardCall(page, "POST", "/api/dashboard/keys", { name: "From the developer", scopes: ["counts:read"], expiresAt: null })).status).toBe(201);
  await page.goto("/dashboard/members");
  await expect(members(page)).toHaveCount(2);
  await expect(page.getByRole("button", { name: "Send invite" })).toHaveCount(0);
  await lookAt(page, "members-developer");

  // The owner sees the new member, and the audit log says who invited and who joined.
  await owner.reload();
  await expect(members(owner)).toHaveCount(2);
  await owner.goto("/dashboard/audit");
  await expect(owner.getByText(invited).first()).toBeVisible();

  const ownerAccountId = (await dashboardCall(page, "GET", "/api/dashboard/members", undefined)).body.members[0].userId as string;
  // Switching back to their own account in the header.
  await page.getByRole("banner").getByRole("button", { name: /^Account:/ }).click();
  await page.getByRole("banner").getByRole("button", { name: new RegExp(invited.replace(/[.+]/g, "\\$&")) }).click();
  await expect(page.getByTestId("account-email")).toHaveText(invited);
  await expect(page.getByTestId("member-banner")).toHaveCount(0);
  expect((await dashboardCall(page, "PUT", "/api/dashboard/whitelist", { domains: [], enabled: false })).status).toBe(200);
  // A tab still showing the team's account cannot change the account this browser switched to.
  const stale = { "x-sharecount-account": ownerAccountId };
  expect(await dashboardCall(page, "PUT", "/api/dashboard/whitelist", { domains: [], enabled: false }, stale)).toMatchObject({ status: 409, body: { error: "account_changed" } });
  await context.close();
});

test("the holder (the last owner) cannot leave or be demoted; an admin cannot give the owner role; a removed member loses the account", async ({ signedIn: owner, browser }) => {
  const other = createAccount("free");
  await owner.goto("/dashboard/members");
  await owner.getByRole("textbox", { name: "Email address" }).fill(other.email);
  await owner.getByLabel("Role", { exact: true }).selectOption("admin");
  await owner.getByRole("button", { name: "Send invite" }).click();
  const { link } = await waitForMail(other.email, /invited you/);

  const context = await browser.newContext({ extraHTTPHeaders: { "X-Forwarded-For": testClientAddress() } });
  const page = await context.newPage();
  await signIn(page, other);
  await page.goto(link);
  await page.getByRole("button", { name: "Join the account" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/dashboard/members");
  const ownerRow = members(page).filter({ hasText: "Holder of the account" });
  // An admin sees the owner's role but cannot change it, and is not offered the owner role for others.
  await expect(ownerRow.getByRole("combobox")).toHaveCount(0);
  const self = members(page).filter({ hasText: "(you)" });
  await expect(self.getByRole("combobox").locator("option")).toHaveText(["Admin", "Developer", "Viewer"]);
  // Nor can it take the role through the route.
  const ownerUserId = (await dashboardCall(page, "GET", "/api/dashboard/members", undefined)).body.members[0].userId as string;
  expect(await dashboardCall(page, "PATCH", `/api/dashboard/members/${ownerUserId}`, { role: "admin" })).toMatchObject({ status: 403, body: { error: "forbidden" } });

  await owner.reload();
  const ownerSelf = members(owner).filter({ hasText: "(you)" });
  // The holder stays owner: no Leave, no role to change, so the account always has an owner.
  await expect(ownerSelf.getByRole("button", { name: "Leave" })).toHaveCount(0);
  await expect(ownerSelf.getByRole("combobox")).toHaveCount(0);

  // Removed: the member's next page is their own account again.
  const row = members(owner).filter({ hasText: other.email });
  await row.getByRole("button", { name: "Remove" }).click();
  await row.getByRole("button", { name: "Remove" }).click();
  await expect(members(owner)).toHaveCount(1);
  await page.goto("/dashboard");
  await expect(page.getByTestId("account-email")).toHaveText(other.email);
  await context.close();
});
