/**
 * `npm run bench:web`: the JavaScript each dashboard page loads, gzipped, against the production build. Builds
 * it if missing or stale (scripts/ensure-build.ts), starts the app as `npm start` does (start/one-process.ts) on
 * a temporary database, signs in as its demo account (business plan, a month of usage, tracked URLs with
 * history, a finished bulk job) through the sign-in form in Debian's Chromium, and records every script the
 * browser loads for each page with an empty cache until the network is idle and the page has drawn. Each
 * script's body is gzipped (level 9) and summed, in two parts: first-load JS (the scripts the page's HTML names:
 * what must arrive before the page works) and what the page loads lazily after (a chart's library, fetched
 * while its skeleton shows). Budgets, on first-load JS: 200 kB (200,000 bytes) for /dashboard, 250 kB for
 * every other page.
 */
import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { chromium, type Browser, type BrowserContext, type Cookie } from "@playwright/test";
import { ensureBuild, freePort, log, runMain, sleep, startChild, stopChild, tempDir, TSX, waitForStatus } from "./support.ts";

const OVERVIEW = "/dashboard";
const budgetKb = (page: string) => (page === OVERVIEW ? 200 : 250);
const CHART = "svg.recharts-surface";
/** Every page, with what shows that it drew fully (its chart, where it has one); pages with a parameter follow. */
const PAGES: { page: string; ready?: string }[] = [
  { page: OVERVIEW },
  { page: "/dashboard/urls" },
  { page: "/dashboard/usage", ready: CHART },
  { page: "/dashboard/whitelist" },
  { page: "/dashboard/bulk" },
  { page: "/dashboard/networks" },
  { page: "/dashboard/alerts" },
  { page: "/dashboard/settings" },
  { page: "/dashboard/api" },
];
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

interface ScriptFile {
  path: string;
  bytes: number;
  gzipBytes: number;
}

interface PageFigure {
  page: string;
  scripts: ScriptFile[];
  /** Named by the page's HTML: the first load. */
  firstLoad: ScriptFile[];
  firstLoadGzipBytes: number;
  /** Loaded after, by code of the first load (dynamic imports). */
  lazyGzipBytes: number;
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
    if (new URL(page.url()).pathname !== new URL(pathname, base).pathname) throw new Error(`${pathname} ended at ${page.url()} (not signed in?)`);
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
    const firstLoad = unique.filter((s) => html.includes(s.path));
    const sum = (files: ScriptFile[]) => files.reduce((total, s) => total + s.gzipBytes, 0);
    return {
      page: pathname,
      scripts: unique,
      firstLoad,
      firstLoadGzipBytes: sum(firstLoad),
      lazyGzipBytes: sum(unique) - sum(firstLoad),
      inlineGzipBytes: inline.length > 0 ? gzipSync(inline, { level: 9 }).length : 0,
    };
  } finally {
    await context.close();
  }
}

function print(figure: PageFigure): void {
  console.log("");
  console.log(`JavaScript of ${figure.page}: ${figure.scripts.length} files (* first load)`);
  console.log(`  ${"gzip".padStart(10)} ${"raw".padStart(10)}  file`);
  for (const s of figure.scripts) console.log(`  ${fmt(s.gzipBytes).padStart(10)} ${fmt(s.bytes).padStart(10)}  ${figure.firstLoad.includes(s) ? "*" : " "} ${s.path}`);
  console.log(`  ${fmt(figure.firstLoadGzipBytes).padStart(10)} first load, ${fmt(figure.lazyGzipBytes)} lazily after`);
  console.log(`  (inline RSC payload in the HTML, not counted: ${fmt(figure.inlineGzipBytes)} gzipped)`);
}

/** The URL view of the demo's first tracked URL and the page of its latest bulk job, read as the dashboard does. */
async function pagesWithParameters(base: string, cookies: Cookie[]): Promise<{ page: string; ready?: string }[]> {
  const cookie = cookies.map((c) => `${c.name}=${c.value}`).join("; ");
  const read = async (route: string) => {
    const res = await fetch(`${base}${route}`, { headers: { cookie } });
    return res.ok ? ((await res.json()) as Record<string, unknown>) : null;
  };
  const pages: { page: string; ready?: string }[] = [];
  const tracked = (await read("/api/dashboard/tracked"))?.data as { url: string }[] | undefined;
  if (tracked?.[0]) pages.push({ page: `/dashboard/urls/view?url=${encodeURIComponent(tracked[0].url)}`, ready: CHART });
  else log("warning: the demo account tracks no URL; the URL view is not measured");
  const jobs = (await read("/api/dashboard/bulk"))?.jobs as { id: string }[] | undefined;
  if (jobs?.[0]) pages.push({ page: `/dashboard/bulk/${jobs[0].id}` });
  else log("warning: the demo account has no bulk job; a job's page is not measured");
  return pages;
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
    for (const { page, ready } of [...PAGES, ...(await pagesWithParameters(base, cookies))]) figures.push(await measurePage(browser, base, cookies, page, ready));
  } finally {
    await browser.close();
  }
  await stopChild(server);

  for (const figure of figures) print(figure);
  console.log("");
  console.log(`${"first load".padStart(12)} ${"lazily".padStart(10)} ${"budget".padStart(8)}  page`);
  const rows = figures.map((f) => ({ page: f.page, firstLoadKb: kb(f.firstLoadGzipBytes), lazyKb: kb(f.lazyGzipBytes), budgetKb: budgetKb(f.page) }));
  for (const r of rows) {
    const verdict = r.firstLoadKb <= r.budgetKb ? "met" : "MISSED";
    console.log(`${`${r.firstLoadKb.toFixed(1)} kB`.padStart(12)} ${`${r.lazyKb.toFixed(1)} kB`.padStart(10)} ${`${r.budgetKb} kB`.padStart(8)}  ${r.page} (${verdict})`);
  }
  const met = rows.every((r) => r.firstLoadKb <= r.budgetKb);
  console.log("");
  console.log(
    JSON.stringify({
      bench: "web",
      pages: Object.fromEntries(rows.map((r) => [r.page.split("?")[0], { first_load_gzip_kb: Number(r.firstLoadKb.toFixed(1)), lazy_gzip_kb: Number(r.lazyKb.toFixed(1)), budget_kb: r.budgetKb }])),
      met,
    }),
  );
  return met ? 0 : 1;
}

await runMain(main);
