import { execFileSync } from "node:child_process";
import AxeBuilder from "@axe-core/playwright";
import path from "node:path";
import Database from "better-sqlite3";
import { test as base, expect, type APIRequestContext, type APIResponse, type Page } from "@playwright/test";
import { E2E_BASE_URL, E2E_ENV, E2E_MAIL_HTTP_PORT } from "./env";

export interface E2EAccount {
  email: string;
  password: string;
  apiKey: string;
}

const TSX = path.resolve("node_modules", ".bin", "tsx");

/** Runs an admin command against the e2e database and returns its JSON answer. */
export function admin(...args: string[]): Record<string, unknown> {
  const out = execFileSync(TSX, ["service/admin/cli.ts", ...args], { env: { ...process.env, ...E2E_ENV }, encoding: "utf8" });
  return JSON.parse(out.trim().split("\n").at(-1)!);
}

/** Runs `use` on the e2e server's own SQLite file: for what no API sets or shows (history, stored hashes). */
export function withDatabase<T>(use: (db: Database.Database) => T): T {
  const db = new Database(E2E_ENV.DATABASE_URL!.replace(/^file:/, ""));
  try {
    db.pragma("busy_timeout = 5000");
    return use(db);
  } finally {
    db.close();
  }
}

/**
 * Moves an account's start `days` days back: its first quota allocation (what the usage report counts the
 * account's days from) is dated then, as if it had been created that day.
 */
export function backdateAccount(email: string, days: number): void {
  const date = new Date();
  date.setUTCDate(date.getUTCDate() - days); // the e2e server's QUOTA_TIMEZONE is UTC
  withDatabase((db) => {
    const { id } = db.prepare<[string], { id: string }>("SELECT id FROM account WHERE email = ?").get(email)!;
    db.prepare("UPDATE quota_allocation SET day = ? WHERE account_id = ? AND day = (SELECT MIN(day) FROM quota_allocation WHERE account_id = ?)").run(
      date.toISOString().slice(0, 10),
      id,
      id,
    );
  });
}

/** Sets how many queries the account has used today, straight in the database (500 real queries would be slow). */
export function setUsedToday(email: string, queries: number) {
  withDatabase((db) => {
    const { id } = db.prepare<[string], { id: string }>("SELECT id FROM account WHERE email = ?").get(email)!;
    const today = new Date().toISOString().slice(0, 10); // the e2e server's QUOTA_TIMEZONE is UTC
    db.prepare(
      "INSERT INTO daily_usage (account_id, day, queries) VALUES (?, ?, ?) ON CONFLICT (account_id, day) DO UPDATE SET queries = excluded.queries",
    ).run(id, today, queries);
  });
}

let seq = 0;
/** A new account with a unique email, on `plan`, with a password for the dashboard. */
export function createAccount(plan = "business"): E2EAccount {
  const email = `e2e-${process.pid}-${Date.now().toString(36)}-${++seq}@example.com`;
  const password = `pw-${Math.random().toString(36).slice(2)}-long`;
  const answer = admin("account:create", "--email", email, "--plan", plan, "--password", password);
  return { email, password, apiKey: String(answer.apikey) };
}

export async function signIn(page: Page, account: Pick<E2EAccount, "email" | "password">) {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** Signs out through the header's account menu. */
export async function signOut(page: Page) {
  await page.getByRole("banner").getByRole("button", { name: /^Account:/ }).click();
  await page.getByRole("banner").getByRole("button", { name: "Sign out" }).click();
}

/** Tracks URLs through the public API (faster than the page, for tests about the list itself). */
export async function trackByApi(account: E2EAccount, urls: string[]) {
  const response = await fetch(`${E2E_BASE_URL}/v2/tracked`, {
    method: "POST",
    headers: { authorization: `Bearer ${account.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ urls }),
  });
  expect(response.status).toBe(200);
}

/** Calls the public API directly, as a client library would. */
export async function api(path: string, apiKey: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${E2E_BASE_URL}${path}${path.includes("?") ? "&" : "?"}apikey=${apiKey}`);
  return { status: response.status, body: await response.json().catch(() => null) };
}

/** A bulk job as the API answers it: `Count` is v1's count object, or v2's network objects. */
export interface BulkAnswer<Count = unknown> {
  data: Record<string, Count> | [];
  _meta: { urls_completed: number; urls_queued: number; completed: boolean; bulk_id: string };
}

/**
 * Polls the API until the bulk job is complete, and answers the job then, as API `version` reads it. Up to 60 s:
 * a job of 500 URLs takes a few seconds on a quiet machine, and passed 15 s beside two CPU-bound processes.
 */
export async function finishedJob<Count = unknown>(apiKey: string, bulkId: string, version: "v1.0" | "v2" = "v1.0"): Promise<BulkAnswer<Count>> {
  let answer: BulkAnswer<Count> | undefined;
  await expect
    .poll(async () => {
      answer = (await api(`/${version}/bulk?bulk_id=${bulkId}`, apiKey)).body as BulkAnswer<Count>;
      return answer._meta.completed;
    }, { timeout: 60_000 })
    .toBe(true);
  return answer!;
}

/** A server action's POST as the browser sent it: replayed with other field values, many at once. */
export interface CapturedAction {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** Records the server action POST that `submit` makes on `path` (its answer is awaited too). */
export async function captureAction(page: Page, path: string, submit: () => Promise<void>): Promise<CapturedAction> {
  const posted = page.waitForRequest((r) => r.method() === "POST" && new URL(r.url()).pathname === path);
  const answered = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === path);
  await submit();
  const request = await posted;
  await answered;
  const headers = await request.allHeaders();
  for (const name of ["cookie", "content-length", "host", "connection"]) delete headers[name];
  return { path, headers, body: request.postData() ?? "" };
}

/**
 * Sends a captured action again with strings of its body replaced (`from` → `to`), as a client at
 * `clientAddress` (the e2e server trusts X-Forwarded-For from 127.0.0.1), so a test has rate limits of its own.
 */
export function replayAction(
  request: APIRequestContext,
  action: CapturedAction,
  replacements: Record<string, string>,
  clientAddress: string,
): Promise<APIResponse> {
  let body = action.body;
  for (const [from, to] of Object.entries(replacements)) body = body.split(from).join(to);
  return request.post(action.path, { headers: { ...action.headers, "x-forwarded-for": clientAddress }, data: Buffer.from(body), maxRedirects: 0 });
}

/** A documentation address (2001:db8::/32) of its own, for a test's own per-address limits. */
export function testClientAddress(): string {
  const group = () => Math.floor(Math.random() * 0x10000).toString(16);
  return `2001:db8:${group()}:${group()}::${group()}`;
}

/** `account`: a fresh business account; `signedIn`: a page signed in as it. */
export const test = base.extend<{ account: E2EAccount; signedIn: Page }>({
  account: async ({}, use) => {
    await use(createAccount("business"));
  },
  signedIn: async ({ page, account }, use) => {
    await signIn(page, account);
    await use(page);
  },
});

export { expect };

/** A mail the e2e SMTP server received (e2e/mail-sink.ts). */
export interface ReceivedMail {
  to: string[];
  from: string | null;
  subject: string | null;
  text: string;
  html: string;
  messageId: string | null;
  autoSubmitted: string | null;
}

export async function mailsTo(address: string): Promise<ReceivedMail[]> {
  const response = await fetch(`http://127.0.0.1:${E2E_MAIL_HTTP_PORT}/messages?to=${encodeURIComponent(address)}`);
  return (await response.json()) as ReceivedMail[];
}

/** Waits for a mail to `address` whose subject matches; answers it and the first link into this app it carries. */
export async function waitForMail(address: string, subject: RegExp): Promise<{ mail: ReceivedMail; link: string }> {
  let found: ReceivedMail | undefined;
  await expect.poll(async () => (found = (await mailsTo(address)).findLast((m) => subject.test(m.subject ?? ""))) !== undefined, { timeout: 20_000 }).toBe(true);
  const link = found!.text.match(new RegExp(`${E2E_BASE_URL.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/\\S+`))?.[0] ?? "";
  return { mail: found!, link };
}

/**
 * The page never scrolls sideways at `width`. Polled: charts follow a resize through a ResizeObserver,
 * so right after setViewportSize they may still have their desktop width for a frame or two.
 */
export async function expectNoPageOverflow(page: Page, width = 390) {
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

/** Light and dark, desktop and phone: no axe violation, nothing wider than the screen, a screenshot of each. */
export async function lookAt(page: Page, name: string) {
  for (const [size, viewport] of [["desktop", { width: 1280, height: 800 }], ["phone", { width: 390, height: 844 }]] as const) {
    await page.setViewportSize(viewport);
    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme });
      const { violations } = await new AxeBuilder({ page }).analyze();
      expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(" ")}`), `${name} ${size} ${colorScheme}`).toEqual([]);
      await expectNoPageOverflow(page, viewport.width);
      await page.screenshot({ path: test.info().outputPath(`${name}-${size}-${colorScheme}.png`), fullPage: true });
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: "light" });
}
