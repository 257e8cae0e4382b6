import type { Page } from "@playwright/test";
import { api, expect, lookAt, test } from "./fixtures";

const COUNT = "/v1.0/?url=https%3A%2F%2Fexample.com%2Fe2e-keys";
const items = (page: Page) => page.getByTestId("key-item");

test("creates a key with a name, scopes and an expiry, shows it once, and the API holds it to its scopes", async ({ signedIn: page, account }) => {
  await page.goto("/dashboard/keys");
  await expect(page.getByRole("heading", { name: "API keys", level: 1 })).toBeVisible();
  await expect(items(page)).toHaveCount(1);
  await expect(items(page)).toContainText("Default");

  await page.getByRole("button", { name: "Create key" }).click();
  const dialog = page.getByRole("dialog", { name: "Create a key" });
  // Checked in the page before anything is sent.
  await dialog.getByRole("button", { name: "Create key" }).click();
  await expect(dialog.getByText("Name the key, so you can tell it apart later.")).toBeVisible();
  await dialog.getByLabel("Name").fill("Share buttons");
  await dialog.getByLabel("Expires").selectOption({ label: "In 30 days" });
  await lookAt(page, "keys-create");
  await dialog.getByRole("button", { name: "Create key" }).click();

  const made = page.getByRole("dialog", { name: "Your new key “Share buttons”" });
  await expect(made.getByTestId("new-api-key")).toHaveText(/^[0-9a-f]{40}$/);
  const key = (await made.getByTestId("new-api-key").textContent())!;
  await made.getByRole("button", { name: "Done" }).click();
  await expect(made).toBeHidden();

  const item = items(page).filter({ hasText: "Share buttons" });
  await expect(item).toContainText(`${key.slice(0, 8)}…`);
  await expect(item.getByRole("list", { name: "Scopes" })).toHaveText("counts:read");
  await expect(item).toContainText("never used");
  await expect(item).toContainText(/expires \w+/);
  expect(await page.content()).not.toContain(key);
  await page.reload();
  expect(await page.content()).not.toContain(key);

  expect((await api(COUNT, key)).status).toBe(200);
  expect(await api("/v1.0/quota", key)).toMatchObject({ status: 403, body: { Type: "insufficient_scope" } });
  expect((await api("/v1.0/quota", account.apiKey)).status).toBe(200);
  // The request log (written within 100 ms) feeds the chart of requests per key.
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("key-usage-summary")).toContainText("Share buttons2 requests, 1 failed", { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await expect(page.locator(".recharts-bar-rectangle").first()).toBeVisible();
  await lookAt(page, "keys");
});

test("rolls a key with a grace: both work until it ends; revokes a key after asking: it stops at once", async ({ signedIn: page, account }) => {
  await page.goto("/dashboard/keys");
  const defaultKey = items(page).filter({ hasText: "Default" });

  // Keyboard: the dialog opens with the grace chosen, Escape leaves the key as it was.
  await defaultKey.getByRole("button", { name: "Roll…" }).click();
  const roll = page.getByRole("dialog", { name: "Roll “Default”?" });
  await expect(roll.getByLabel("The old key")).toHaveValue("86400");
  await page.keyboard.press("Escape");
  await expect(roll).toBeHidden();

  await defaultKey.getByRole("button", { name: "Roll…" }).click();
  await roll.getByLabel("The old key").selectOption({ label: "Works on for an hour" });
  await roll.getByRole("button", { name: "Roll key" }).click();
  const shown = page.getByRole("dialog", { name: "The new key for “Default”" });
  await expect(shown.getByTestId("new-api-key")).toHaveText(/^[0-9a-f]{40}$/);
  await expect(shown).toContainText("The old key works until");
  const rolled = (await shown.getByTestId("new-api-key").textContent())!;
  await shown.getByRole("button", { name: "Done" }).click();
  expect((await api("/v1.0/quota", account.apiKey)).status).toBe(200);
  expect((await api("/v1.0/quota", rolled)).status).toBe(200);
  await expect(items(page)).toHaveCount(2);
  await expect(items(page).filter({ hasText: /expires .*\d/ })).toHaveCount(1);

  const current = items(page).filter({ hasText: rolled.slice(0, 8) });
  await current.getByRole("button", { name: "Revoke…" }).click();
  const revoke = page.getByRole("dialog", { name: "Revoke “Default”?" });
  await expect(revoke).toContainText("stops working at once");
  await revoke.getByRole("button", { name: "Revoke key" }).click();
  await expect(revoke).toBeHidden();
  await expect(current).toContainText("revoked");
  await expect(current.getByRole("button")).toHaveCount(0);
  expect(await api("/v1.0/quota", rolled)).toMatchObject({ status: 401, body: { Type: "invalid_api_key" } });
});
