import type { Page } from "@playwright/test";
import { E2E_BASE_URL } from "./env";
import { expect, type E2EAccount } from "./fixtures";

/** What the bulk specs share: the networks' numbers as the table and the CSV show them, and ways to reach rows. */

/** A URL's v2 network objects: each network's status and numbers (null: not reported). */
export type Networks = Record<string, Record<string, string | number | null | undefined>>;

/** Every network's numbers, as v2 objects and the CSV name them; the e2e account shows all eight. */
export const NETWORK_FIELDS: Record<string, string[]> = {
  facebook: ["total_count", "comment_count", "reaction_count", "share_count", "comment_plugin_count"],
  pinterest: ["count"],
  reddit: ["score", "comments", "posts"],
  hackernews: ["points", "comments", "stories"],
  bluesky: ["likes", "reposts", "replies", "quotes", "posts"],
  vk: ["count"],
  ok: ["count"],
  tumblr: ["notes"],
};

/** Each network's column heading and the numbers its headline number sums. */
export const HEADLINES: Record<string, { heading: string; summed: string[] }> = {
  facebook: { heading: "Facebook total count", summed: ["total_count"] },
  pinterest: { heading: "Pinterest", summed: ["count"] },
  reddit: { heading: "Reddit score + comments", summed: ["score", "comments"] },
  hackernews: { heading: "Hacker News points + comments", summed: ["points", "comments"] },
  bluesky: { heading: "Bluesky likes + reposts + replies + quotes", summed: ["likes", "reposts", "replies", "quotes"] },
  vk: { heading: "VK", summed: ["count"] },
  ok: { heading: "OK.ru", summed: ["count"] },
  tumblr: { heading: "Tumblr", summed: ["notes"] },
};

export const csvHeader = (networks: string[]) => ["url", ...networks.flatMap((network) => NETWORK_FIELDS[network]!.map((field) => `${network}_${field}`))];

/** The headline number the table shows: null when the network did not report. */
export function headline(networks: Networks, network: string): number | null {
  const object = networks[network];
  if (!object || object.status === "unavailable") return null;
  const values = HEADLINES[network]!.summed.map((field) => object[field]);
  return values.some((value) => value === null) ? null : values.reduce<number>((sum, value) => sum + Number(value), 0);
}

export const shown = (value: number | null) => (value === null ? "not reported" : value.toLocaleString("en-US"));

/** A result's URL cell, found by its copy button (the cell's name also holds the button's). */
export const urlCell = (page: Page, url: string) =>
  page.getByRole("table").getByRole("cell").filter({ has: page.getByRole("button", { name: `Copy ${url}`, exact: true }) });
export const resultRow = (page: Page, url: string) => page.getByRole("table").getByRole("row").filter({ has: page.getByRole("checkbox", { name: `Select ${url}`, exact: true }) });

export async function columnHeadings(page: Page): Promise<string[]> {
  return (await page.getByRole("table").getByRole("columnheader").allInnerTexts()).map((text) => text.replace(/\s+/g, " ").trim());
}

export const uniqueHost = () => `bulk-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}.example.com`;

/** A job submitted as a client library would: v1.0 a line per URL, v2 JSON naming `networks` (default: the account's). */
export async function submitJobAs(account: E2EAccount, urls: string[], version: "v1.0" | "v2", networks?: string[], name?: string): Promise<string> {
  const body = version === "v2" ? { headers: { "content-type": "application/json" }, body: JSON.stringify({ urls, networks, name }) } : { body: urls.join("\n") };
  const response = await fetch(`${E2E_BASE_URL}/${version}/bulk?apikey=${account.apiKey}`, { method: "POST", ...body });
  expect(response.status).toBe(200);
  return ((await response.json()) as { bulk_id: string }).bulk_id;
}
