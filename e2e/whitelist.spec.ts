import type { Page } from "@playwright/test";
import { admin, api, expect, expectNoPageOverflow, signOut, test, type E2EAccount } from "./fixtures";
import { E2E_BASE_URL } from "./env";

interface WhitelistAnswer {
  domains: string[];
  whitelist_domains_enabled: boolean;
}

const whitelistOf = async (account: E2EAccount) => (await api("/v1.0/domain_whitelist", account.apiKey)).body as WhitelistAnswer;

/** Status and error type of a count query for `url` with the account's key. */
async function queryFor(account: E2EAccount, url: string) {
  const { status, body } = await api(`/v1.0/?url=${encodeURIComponent(url)}`, account.apiKey);
  return { status, type: (body as { Type?: string } | null)?.Type ?? null };
}

const entryInput = (page: Page) => page.getByLabel("Add a domain");
const enforced = (page: Page) => page.getByRole("switch", { name: "Enforce the whitelist" });
const saveButton = (page: Page) => page.getByRole("button", { name: "Save", exact: true });
const listed = (page: Page) => page.getByRole("list", { name: "Whitelisted domains" }).getByRole("listitem");

async function addEntry(page: Page, entry: string) {
  await entryInput(page).fill(entry);
  await page.getByRole("button", { name: "Add", exact: true }).click();
}

async function save(page: Page) {
  await saveButton(page).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
  await expect(saveButton(page)).toBeDisabled();
}

/** Flips the switch, confirms the question it asks, and waits until the change is applied (no Save needed). */
async function switchEnforcement(page: Page, on: boolean) {
  await enforced(page).click();
  const dialog = page.getByRole("dialog", { name: on ? /Enforce the whitelist\?|Refuse every query\?/ : "Stop enforcing the whitelist?" });
  await dialog.getByRole("button", { name: on ? "Turn on enforcement" : "Turn off enforcement" }).click();
  await expect(page.getByRole("status").filter({ hasText: on ? "Enforcement is on." : "Enforcement is off." })).toBeVisible();
  if (on) await expect(enforced(page)).toBeChecked();
  else await expect(enforced(page)).not.toBeChecked();
}

test("entries are checked in the browser, saved, and enforced by the public API at once", async ({ signedIn: page, account }) => {
  await page.goto("/dashboard/whitelist");
  await expect(page.getByRole("heading", { name: "Domain whitelist", level: 1 })).toBeVisible();
  await expect(enforced(page)).not.toBeChecked();
  await expect(page.getByText("No domains on the list yet.")).toBeVisible();
  await expect(saveButton(page)).toBeDisabled();

  // Pasted URLs are reduced to their normalized domain; IDN is shown in Unicode (and saved as punycode); a wildcard is kept.
  await addEntry(page, "https://Shop.Example.com:8443/cart?x=1");
  await addEntry(page, "*.example.org");
  await addEntry(page, "bücher.de");
  await expect(listed(page)).toHaveText([/^bücher\.de/, /^\*\.example\.org/, /^shop\.example\.com/]);
  await expect(entryInput(page)).toHaveValue("");
  await expect(saveButton(page)).toBeEnabled();

  // An invalid entry is refused with its reason, tied to the input for screen readers.
  await addEntry(page, "not a domain");
  await expect(entryInput(page)).toHaveAttribute("aria-invalid", "true");
  await expect(entryInput(page)).toHaveAccessibleDescription(/"not a domain" is not a valid domain name\./);
  await expect(page.getByRole("alert").filter({ hasText: "is not a valid domain name" })).toBeVisible();
  await expect(entryInput(page)).toHaveValue("not a domain");
  await entryInput(page).fill("");
  await expect(entryInput(page)).toHaveAttribute("aria-invalid", "false");

  // A repeat after normalization is refused too, saying which entry it repeats.
  await addEntry(page, "SHOP.example.com/other-page");
  await expect(entryInput(page)).toHaveAccessibleDescription(/is shop\.example\.com, which is already on the list\./);
  await expect(listed(page)).toHaveCount(3);

  await page.screenshot({ path: test.info().outputPath("whitelist.png"), fullPage: true });
  await save(page);
  await switchEnforcement(page, true);
  await expect(saveButton(page)).toBeDisabled();

  // The public API reflects the change with the very next request, and enforces it.
  expect(await whitelistOf(account)).toEqual({
    domains: expect.arrayContaining(["shop.example.com", "*.example.org", "xn--bcher-kva.de"]),
    whitelist_domains_enabled: true,
  });
  expect((await whitelistOf(account)).domains).toHaveLength(3);
  expect(await queryFor(account, "https://elsewhere.com/page")).toEqual({ status: 403, type: "domain_not_whitelisted" });
  expect(await queryFor(account, "https://example.org/apex-is-not-a-subdomain")).toEqual({ status: 403, type: "domain_not_whitelisted" });
  expect((await queryFor(account, "https://shop.example.com/product/1")).status).toBe(200);
  expect((await queryFor(account, "https://news.example.org/story")).status).toBe(200);

  // Saved state survives reload; removing an entry and adding it back leaves nothing to save.
  await page.reload();
  await expect(listed(page)).toHaveCount(3);
  await expect(enforced(page)).toBeChecked();
  await page.getByRole("button", { name: "Remove *.example.org" }).click();
  await expect(listed(page)).toHaveCount(2);
  await expect(page.getByRole("button", { name: "Remove shop.example.com" })).toBeFocused();
  await expect(saveButton(page)).toBeEnabled();
  await addEntry(page, "*.example.org");
  await expect(saveButton(page)).toBeDisabled();

  await page.getByRole("button", { name: "Remove *.example.org" }).click();
  await save(page);
  expect((await whitelistOf(account)).domains.sort()).toEqual(["shop.example.com", "xn--bcher-kva.de"]);
  expect(await queryFor(account, "https://news.example.org/story")).toEqual({ status: 403, type: "domain_not_whitelisted" });

  // Enforcement off: every domain is allowed again, and the list is kept.
  await switchEnforcement(page, false);
  expect(await whitelistOf(account)).toEqual({ domains: expect.arrayContaining(["shop.example.com"]), whitelist_domains_enabled: false });
  expect((await queryFor(account, "https://elsewhere.com/page")).status).toBe(200);

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(enforced(page)).toBeVisible();
  await expectNoPageOverflow(page);
  await page.screenshot({ path: test.info().outputPath("whitelist-phone.png"), fullPage: true });
});

test("turning enforcement on with an empty list asks first and says every query will be refused", async ({ signedIn: page, account }) => {
  await page.goto("/dashboard/whitelist");
  await expect(page.getByText("No domains on the list yet.")).toBeVisible();

  // Keyboard: Space on the switch opens the question; Escape cancels it and nothing changes.
  await enforced(page).focus();
  await page.keyboard.press("Space");
  const dialog = page.getByRole("dialog", { name: "Refuse every query?" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("every query will be refused");
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.screenshot({ path: test.info().outputPath("whitelist-confirm.png") });
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(enforced(page)).not.toBeChecked();
  await expect(saveButton(page)).toBeDisabled();

  // Confirmed, it applies at once.
  await switchEnforcement(page, true);
  await expect(page.getByText("every query will be refused. Add a domain or turn enforcement off.")).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(saveButton(page)).toBeDisabled();

  expect(await whitelistOf(account)).toEqual({ domains: [], whitelist_domains_enabled: true });
  expect(await queryFor(account, "https://example.com/")).toEqual({ status: 403, type: "domain_not_whitelisted" });
});

test("removing the last entry of an enforced whitelist asks before saving", async ({ signedIn: page, account }) => {
  admin("whitelist:set", "--email", account.email, "--domains", "example.com", "--enabled", "true");
  await page.goto("/dashboard/whitelist");
  await expect(listed(page)).toHaveText([/^example\.com/]);
  await expect(enforced(page)).toBeChecked();

  await page.getByRole("button", { name: "Remove example.com" }).click();
  await expect(entryInput(page)).toBeFocused();
  await saveButton(page).click();
  const dialog = page.getByRole("dialog", { name: "Refuse every query?" });
  await dialog.getByRole("button", { name: "Cancel" }).click();
  expect((await whitelistOf(account)).domains).toEqual(["example.com"]);

  await saveButton(page).click();
  await dialog.getByRole("button", { name: "Save and refuse every query" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
  expect(await whitelistOf(account)).toEqual({ domains: [], whitelist_domains_enabled: true });
});

test("the route checks entries on the server too: an invalid one is a 422 with its reason and changes nothing", async ({ signedIn: page, account }) => {
  const put = (data: unknown, headers: Record<string, string> = { origin: E2E_BASE_URL }) =>
    page.request.put("/api/dashboard/whitelist", { data, headers });

  const invalid = await put({ domains: ["example.com", "exa mple.com"], enabled: true });
  expect(invalid.status()).toBe(422);
  expect(await invalid.json()).toEqual({ error: "invalid_input", message: 'domains.1: "exa mple.com" is not a valid domain name' });
  expect(await whitelistOf(account)).toEqual({ domains: [], whitelist_domains_enabled: false });

  expect((await put({ domains: "example.com", enabled: true })).status()).toBe(422);
  expect((await put({ domains: ["example.com"], enabled: true }, { origin: "https://evil.example" })).status()).toBe(403);

  const saved = await put({ domains: ["HTTPS://Example.com/x", "example.com"], enabled: true });
  expect(await saved.json()).toEqual({ domains: ["example.com"], enabled: true });
  expect(await whitelistOf(account)).toEqual({ domains: ["example.com"], whitelist_domains_enabled: true });
});

test("the switch says it applies at once, asks, and applies the list as shown, unsaved entries included", async ({ signedIn: page, account }) => {
  await page.goto("/dashboard/whitelist");
  await expect(page.getByText("Switching asks first, then applies at once.")).toBeVisible();
  await addEntry(page, "example.com");
  await enforced(page).click();
  const dialog = page.getByRole("dialog", { name: "Enforce the whitelist?" });
  await expect(dialog).toContainText("only URLs on the domain listed here can be queried");
  await expect(dialog).toContainText("Your unsaved changes to the list are saved with it.");
  // Cancelled: nothing changes anywhere.
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(enforced(page)).not.toBeChecked();
  expect(await whitelistOf(account)).toEqual({ domains: [], whitelist_domains_enabled: false });
  await switchEnforcement(page, true);
  expect(await whitelistOf(account)).toEqual({ domains: ["example.com"], whitelist_domains_enabled: true });
  await expect(saveButton(page)).toBeDisabled();
});

test("unsaved edits: leaving by a link, reload, close or sign-out asks first", async ({ signedIn: page, account }) => {
  await page.goto("/dashboard/whitelist");
  await expect(page.getByText("No domains on the list yet.")).toBeVisible();
  // Nothing to lose yet: a link just goes.
  await page.getByRole("link", { name: "Usage" }).click();
  await expect(page).toHaveURL(/\/dashboard\/usage$/);
  await page.goto("/dashboard/whitelist");
  await addEntry(page, "example.com");
  await expect(page.getByRole("status").filter({ hasText: "Unsaved changes" })).toBeVisible();

  // An in-app link: stay when the question is declined, leave when it is accepted.
  const questions: string[] = [];
  page.once("dialog", (dialog) => {
    questions.push(dialog.message());
    void dialog.dismiss();
  });
  await page.getByRole("link", { name: "Usage" }).click();
  await expect(page).toHaveURL(/\/dashboard\/whitelist$/);
  expect(questions).toEqual(["Your whitelist has unsaved changes. Leave this page and lose them?"]);
  await expect(listed(page)).toHaveText([/^example\.com/]);

  // Sign-out leaves the page too.
  page.once("dialog", (dialog) => void dialog.dismiss());
  await signOut(page);
  await expect(page).toHaveURL(/\/dashboard\/whitelist$/);
  await expect(listed(page)).toHaveText([/^example\.com/]);

  // Reload or close: the browser's own question.
  const unload = new Promise<string>((resolve) => page.once("dialog", (dialog) => void dialog.dismiss().then(() => resolve(dialog.type()))));
  await page.close({ runBeforeUnload: true });
  expect(await unload).toBe("beforeunload");
  expect(page.isClosed()).toBe(false);

  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("link", { name: "Overview" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  expect(await whitelistOf(account)).toEqual({ domains: [], whitelist_domains_enabled: false });
});

test("refuses hosts no URL can be counted for: private and loopback addresses, localhost and other special-use names", async ({ signedIn: page, account }) => {
  await page.goto("/dashboard/whitelist");
  for (const entry of ["192.168.0.1", "http://10.1.2.3/admin", "127.0.0.1", "localhost", "app.localhost", "printer.local"]) {
    await addEntry(page, entry);
    await expect(entryInput(page), entry).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByRole("alert").filter({ hasText: /is not a public host|is not a valid domain name/ }), entry).toBeVisible();
  }
  await expect(page.getByText("No domains on the list yet.")).toBeVisible();
  // The server says the same.
  const refused = await page.request.put("/api/dashboard/whitelist", { data: { domains: ["192.168.0.1"], enabled: false }, headers: { origin: E2E_BASE_URL } });
  expect(refused.status()).toBe(422);
  expect(await whitelistOf(account)).toEqual({ domains: [], whitelist_domains_enabled: false });
});
