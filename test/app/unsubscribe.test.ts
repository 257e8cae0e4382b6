import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openAlerts } from "../../lib/alerts/open-alerts.ts";
import { createPrisma, type PrismaClient } from "../../lib/db/prisma.ts";
import { loadServerSecret } from "../../lib/security/secrets.ts";
import { ensureDashboardBuild, startApp, type App } from "../support/app.ts";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp.ts";

/*
 * Alert mail as `npm start` sends it, to a real SMTP server: it carries RFC 8058's List-Unsubscribe headers, and
 * POSTing `List-Unsubscribe=One-Click` to that URL (as a mail provider does: another origin, no session) turns the
 * event type off. Opening the URL changes nothing.
 */

/** Where links in mail point; the test reaches the app at its loopback address instead. */
const PUBLIC_URL = "https://sharecount.example.org";
const local = (url: string) => url.replace(PUBLIC_URL, app.url);
let app: App;
let smtp: TestSmtpServer;
let prisma: PrismaClient;

beforeAll(async () => {
  await ensureDashboardBuild();
  smtp = await startSmtpServer();
  app = await startApp({ SHARECOUNT_PUBLIC_URL: PUBLIC_URL, SMTP_URL: smtp.url });
  prisma = createPrisma(`file:${path.join(app.dataDir, "app.db")}`);
}, 300_000);
afterAll(async () => {
  await prisma?.$disconnect();
  await app?.close();
  await smtp?.close();
});

describe("one-click unsubscribe", () => {
  it("an alert mail carries List-Unsubscribe; a GET changes nothing, the one-click POST turns the type off", async () => {
    const email = "alerts-reader@example.com";
    const { id } = await prisma.account.create({ data: { id: "acct-unsubscribe", email, planName: "free", emailVerified: new Date() } });
    const kit = openAlerts(prisma, loadServerSecret({ DATABASE_URL: `file:${path.join(app.dataDir, "app.db")}` }), PUBLIC_URL);
    await kit.alerts.emit({ accountId: id, type: "quota.warning", data: { used: 400, quota: 500, day: "2026-11-27" }, onceKey: "quota.warning:2026-11-27" }, Date.now());

    const mail = await smtp.waitFor((m) => m.subject === "sharecount: 80 % of the daily quota used");
    // As sent (mailparser reshapes List-* headers).
    const raw = (key: string) => mail.headerLines.find((h) => h.key === key)?.line.replace(/^[^:]+:\s*/, "").replace(/\r?\n\s+/g, "");
    const header = raw("list-unsubscribe") ?? "";
    expect(raw("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    const link = /^<(https:\/\/sharecount\.example\.org\/api\/unsubscribe\?token=[A-Za-z0-9_.-]+)>$/.exec(header)?.[1];
    expect(link, header).toBeDefined();

    // A mail scanner opening the link: the page, and nothing turned off.
    const opened = await fetch(local(link!), { redirect: "manual" });
    expect(opened.status).toBe(303);
    const page = await fetch(local(opened.headers.get("location")!));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("80 % of the daily quota used");
    expect((await kit.settings.of(id)).email).toContain("quota.warning");

    const forged = await fetch(local(link!).replace(/.$/, (c) => (c === "A" ? "B" : "A")), { method: "POST", body: "List-Unsubscribe=One-Click", headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    expect(forged.status).toBe(400);
    expect((await forged.json()).Type).toBe("invalid_token");

    // Neither form encoding: refused, and nothing turned off.
    const post = (body: BodyInit, headers: Record<string, string> = {}) =>
      fetch(local(link!), { method: "POST", body, headers: { Origin: "https://mail.provider.example", ...headers } });
    const plain = await post("List-Unsubscribe=One-Click", { "Content-Type": "text/plain" });
    expect([plain.status, (await plain.json()).Type]).toEqual([415, "unsupported_media_type"]);
    const broken = await post("List-Unsubscribe=One-Click", { "Content-Type": "multipart/form-data; boundary=x" });
    expect([broken.status, (await broken.json()).Type]).toEqual([400, "invalid_body"]);
    // Over the 1 KB cap, multipart too: refused before the body is read.
    const padded = new FormData();
    padded.set("List-Unsubscribe", "One-Click");
    padded.set("padding", "x".repeat(2048));
    expect((await post(padded)).status).toBe(413);
    expect((await kit.settings.of(id)).email).toContain("quota.warning");

    // RFC 8058's POST SHOULD be multipart/form-data (as `curl -F 'List-Unsubscribe=One-Click'` sends it).
    const form = new FormData();
    form.set("List-Unsubscribe", "One-Click");
    const oneClick = await post(form);
    expect(oneClick.status).toBe(200);
    const settings = await kit.settings.of(id);
    expect(settings.email).not.toContain("quota.warning");
    expect(settings.email).toContain("quota.exhausted");
    // It MAY be urlencoded, as the page's form sends it.
    expect((await post("List-Unsubscribe=One-Click", { "Content-Type": "application/x-www-form-urlencoded" })).status).toBe(200);
  });
});
