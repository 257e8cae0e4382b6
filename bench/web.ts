/**
 * `npm run bench:web`: the first-load JavaScript of the dashboard's overview page (`/dashboard`), gzipped,
 * against the production build. Builds it if missing or stale (scripts/ensure-build.ts), starts the app as
 * `npm start` does (start/one-process.ts) on a temporary database, signs in as its demo account (business plan, a
 * month of usage) through the sign-in form in Debian's
 * Chromium, and records every script the browser loads for the page with an empty cache until the network
 * is idle. Each script's body is gzipped (level 9) and summed. Budget: 200 kB (200,000 bytes) for
 * /dashboard; /dashboard/usage (the Recharts page) is reported for comparison.
 */
import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { chromium, type Browser, type BrowserContext, type Cookie } from "@playwright/test";
import { ensureBuild, freePort, log, runMain, sleep, startChild, stopChild, tempDir, TSX, waitForStatus } from "./support.ts";

const BUDGET_KB = 200;
const OVERVIEW = "/dashboard";
/** Pages for comparison, with what shows that they rendered fully (the chart, for the usage page). */
const COMPARE: { page: string; ready?: string }[] = [{ page: "/dashboard/usage", ready: "svg.recharts-surface" }];
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

interface ScriptFile {
  path: string;
  bytes: number;
  gzipBytes: number;
}

interface PageFigure {
  page: string;
  scripts: ScriptFile[];
  bytes: number;
  gzipBytes: number;
  /** Inline <script> elements of the HTML (Next's RSC payload: data, not code); reported, not counted. */
  inlineGzipBytes: number;
}

const kb = (bytes: number) => bytes / 1000;
const fmt = (bytes: number) => `${kb(bytes).toFixed(1)} kB`;

/** The demo account's email and password, from the line `npm start` prints for it. */
function demoAccount(child: ChildProcess): Promise<{ email: string; password: string }> {
  return new Promise((resolve, reject) => {
    let rest = "";
    const timer = setTimeout(() => reject(new Error("the server printed no demo_account line")), 300_000);
    child.stdout!.on("data", (chunk: Buffer | string) => {
      const lines = (rest + chunk.toString()).split("\n");
      rest = lines.pop()!;
      for (const line of lines) {
        if (!line.startsWith("{")) continue;
        try {
          const event = JSON.parse(line) as { event?: string; email?: string; password?: string };
          if (event.event === "demo_account" && event.email && event.password) {
            clearTimeout(timer);
            resolve({ email: event.email, password: event.password });
          }
        } catch {
          // not JSON
        }
      }
    });
  });
}

async function signedInCookies(browser: Browser, base: string, email: string, password: string): Promise<Cookie[]> {
  const context = await browser.newContext({ baseURL: base });
  try {
    const page = await context.newPage();
    await page.goto("/sign-in");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/dashboard$/, { timeout: 60_000 });
    return await context.cookies();
  } finally {
    await context.close();
  }
}

/** Loads `pathname` in a new context (empty cache) with the session cookies; every script response counts. */
async function measurePage(browser: Browser, base: string, cookies: Cookie[], pathname: string, ready?: string): Promise<PageFigure> {
  const context: BrowserContext = await browser.newContext({ baseURL: base });
  try {
    await context.addCookies(cookies);
    const page = await context.newPage();
    const pending: Promise<ScriptFile | null>[] = [];
    page.on("response", (response) => {
      if (response.request().resourceType() !== "script") return;
      pending.push(
        response
          .body()
          .then((body) => ({ path: new URL(response.url()).pathname, bytes: body.length, gzipBytes: gzipSync(body, { level: 9 }).length }))
          .catch(() => null),
      );
    });
    const response = await page.goto(pathname, { waitUntil: "networkidle", timeout: 120_000 });
    if (new URL(page.url()).pathname !== pathname) throw new Error(`${pathname} ended at ${page.url()} (not signed in?)`);
    if (!response || response.status() !== 200) throw new Error(`${pathname} answered ${response?.status()}`);
    if (ready) {
      const shown = await page.locator(ready).first().waitFor({ timeout: 30_000 }).then(() => true, () => false);
      if (!shown) log(`warning: ${pathname} did not show ${ready}; its figure may leave out lazily loaded code`);
    }
    // Late chunks (a lazily loaded component mounting right after hydration) are part of the first load.
    await sleep(500);
    await page.waitForLoadState("networkidle");
    const html = await response.text();
    const inline = [...html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!).join("\n");
    const scripts = (await Promise.all(pending)).filter((s): s is ScriptFile => s !== null);
    // The same file requested twice (preload and script) counts once.
    const unique = [...new Map(scripts.map((s) => [s.path, s])).values()].sort((a, b) => b.gzipBytes - a.gzipBytes);
    return {
      page: pathname,
      scripts: unique,
      bytes: unique.reduce((sum, s) => sum + s.bytes, 0),
      gzipBytes: unique.reduce((sum, s) => sum + s.gzipBytes, 0),
      inlineGzipBytes: inline.length > 0 ? gzipSync(inline, { level: 9 }).length : 0,
    };
  } finally {
    await context.close();
  }
}

function print(figure: PageFigure): void {
  console.log("");
  console.log(`first-load JavaScript of ${figure.page}: ${figure.scripts.length} files`);
  console.log(`  ${"gzip".padStart(10)} ${"raw".padStart(10)}  file`);
  for (const s of figure.scripts) console.log(`  ${fmt(s.gzipBytes).padStart(10)} ${fmt(s.bytes).padStart(10)}  ${s.path}`);
  console.log(`  ${fmt(figure.gzipBytes).padStart(10)} ${fmt(figure.bytes).padStart(10)}  total`);
  console.log(`  (inline RSC payload in the HTML, not counted: ${fmt(figure.inlineGzipBytes)} gzipped)`);
}

async function main(): Promise<number> {
  await ensureBuild();
  const dir = tempDir("bench-web");
  const databaseUrl = `file:${path.join(dir, "web.db")}`;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  log(`starting start/one-process.ts on ${base} with the demo account (a month of usage, so the usage chart renders)`);
  const server = startChild("server", TSX, ["start/one-process.ts"], {
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_URL: databaseUrl,
    SHARECOUNT_NETWORKS: "sandbox",
    SHARECOUNT_DEMO: "true",
  });
  const demo = demoAccount(server.process);
  await waitForStatus(base, server);
  // The API answers before the dashboard has loaded; wait for the dashboard too.
  for (let i = 0; ; i++) {
    const res = await fetch(`${base}/sign-in`).catch(() => null);
    await res?.arrayBuffer();
    if (res?.status === 200) break;
    if (i > 600) throw new Error("the dashboard did not start");
    await sleep(100);
  }

  log(`launching ${CHROMIUM}`);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"] });
  let figures: PageFigure[];
  try {
    const { email, password } = await demo;
    const cookies = await signedInCookies(browser, base, email, password);
    figures = [];
    for (const { page, ready } of [{ page: OVERVIEW }, ...COMPARE]) figures.push(await measurePage(browser, base, cookies, page, ready));
  } finally {
    await browser.close();
  }
  await stopChild(server);

  for (const figure of figures) print(figure);
  const overview = figures[0]!;
  const met = kb(overview.gzipBytes) <= BUDGET_KB;
  console.log("");
  console.log(`overview (${OVERVIEW}) first-load JS: ${fmt(overview.gzipBytes)} gzipped; budget ${BUDGET_KB} kB: ${met ? "met" : "MISSED"}`);
  for (const figure of figures.slice(1)) console.log(`for comparison, ${figure.page}: ${fmt(figure.gzipBytes)} gzipped`);
  console.log("");
  console.log(
    JSON.stringify({
      bench: "web",
      page: OVERVIEW,
      first_load_js_gzip_bytes: overview.gzipBytes,
      first_load_js_gzip_kb: Number(kb(overview.gzipBytes).toFixed(1)),
      first_load_js_raw_kb: Number(kb(overview.bytes).toFixed(1)),
      files: overview.scripts.length,
      budget_kb: BUDGET_KB,
      met,
      compare: Object.fromEntries(figures.slice(1).map((f) => [f.page, Number(kb(f.gzipBytes).toFixed(1))])),
    }),
  );
  return met ? 0 : 1;
}

await runMain(main);
