import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

const SECTIONS = ["Overview", "URLs", "Usage", "Requests", "Whitelist", "Bulk", "Networks", "Alerts", "API keys", "Audit", "Settings", "API reference"];
const bodyBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

test("the header keeps one line at 1280 px with a long address, and its menu shows the whole address", async ({ signedIn: page, account }) => {
  expect(account.email.length).toBeGreaterThanOrEqual(30);
  await page.setViewportSize({ width: 1280, height: 800 });
  const banner = page.getByRole("banner");
  const brand = await banner.getByText("sharecount", { exact: true }).boundingBox();
  const menu = banner.getByRole("button", { name: /^Account:/ });
  const button = await menu.boundingBox();
  const overview = await banner.getByRole("link", { name: "Overview" }).boundingBox();
  // One row: the brand, the sections and the account button share a line, and the header is one row high.
  expect(Math.abs(brand!.y + brand!.height / 2 - (button!.y + button!.height / 2))).toBeLessThan(4);
  expect(Math.abs(overview!.y + overview!.height / 2 - (button!.y + button!.height / 2))).toBeLessThan(4);
  expect((await banner.boundingBox())!.height).toBeLessThan(80);

  await menu.click();
  await expect(banner.getByText(account.email, { exact: true }).last()).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(banner.getByRole("button", { name: "Sign out" })).toBeHidden();
});

test("on a phone the Menu button reaches every section", async ({ signedIn: page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const banner = page.getByRole("banner");
  for (const section of SECTIONS.slice(1)) {
    await banner.getByRole("button", { name: "Menu" }).click();
    await banner.getByRole("link", { name: section, exact: true }).click();
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(banner.getByRole("link", { name: section, exact: true })).toBeHidden();
  }
  expect(new URL(page.url()).pathname).toBe("/dashboard/api");
});

test("follows the system's colour scheme, and the toggle pins one across pages", async ({ signedIn: page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  const light = await bodyBackground(page);
  await page.emulateMedia({ colorScheme: "dark" });
  const dark = await bodyBackground(page);
  expect(dark).not.toBe(light);

  await page.getByRole("button", { name: /^Account:/ }).click();
  await page.getByText("Light", { exact: true }).click();
  expect(await bodyBackground(page)).toBe(light);
  await page.goto("/dashboard/usage");
  expect(await bodyBackground(page)).toBe(light);

  await page.emulateMedia({ colorScheme: "light" });
  await page.getByRole("button", { name: /^Account:/ }).click();
  await page.getByText("Dark", { exact: true }).click();
  expect(await bodyBackground(page)).toBe(dark);
  await page.reload();
  expect(await bodyBackground(page)).toBe(dark);
});
