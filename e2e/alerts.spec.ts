import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { E2E_BASE_URL } from "./env";
import { api, expect, expectNoPageOverflow, test, trackByApi, withDatabase, type E2EAccount } from "./fixtures";

/** A webhook receiver on loopback: records what arrives and answers `status(n)` to the n-th request (1, 2, …). */
async function startReceiver(status: (n: number) => number = () => 204) {
  const received: { headers: http.IncomingHttpHeaders; body: { type: string } }[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      received.push({ headers: req.headers, body: JSON.parse(body) as { type: string } });
      res.statusCode = status(received.length);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/${randomUUID()}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const endpoints = (page: Page) => page.getByRole("list", { name: "Webhook endpoints" }).getByTestId("webhook-endpoint");

/** Adds an endpoint through the dialog; answers the secret it showed, once. */
async function addEndpoint(page: Page, url: string, options: { format?: RegExp; only?: string[]; description?: string } = {}): Promise<string> {
  await page.getByRole("button", { name: "Add endpoint…" }).click();
  const dialog = page.getByRole("dialog", { name: "Add a webhook endpoint" });
  await dialog.getByLabel("Endpoint URL").fill(url);
  if (options.only) {
    for (const box of await dialog.getByRole("group", { name: "Events" }).getByRole("checkbox").all()) await box.uncheck();
    for (const name of options.only) await dialog.getByRole("checkbox", { name }).check();
  }
  if (options.format) await dialog.getByRole("radio", { name: options.format }).check();
  if (options.description) await dialog.getByLabel("Description").fill(options.description);
  await dialog.getByRole("button", { name: "Add endpoint" }).click();
  const added = page.getByRole("dialog", { name: "Endpoint added" });
  const secret = (await added.getByTestId("webhook-secret").textContent())!;
  expect(secret).toMatch(/^whsec_/);
  await added.getByRole("button", { name: "Done" }).click();
  await expect(added).toBeHidden();
  return secret;
}

test("email alerts: a type's switch and the digest persist, thresholds are checked then saved, and an unconfirmed address is told", async ({
  signedIn: page,
}) => {
  await page.goto("/dashboard/alerts");
  await expect(page.getByRole("heading", { name: "Alerts", level: 1 })).toBeVisible();
  await expect(page.getByTestId("alerts-unconfirmed")).toContainText("Mail goes only to a confirmed address");
  await expect(page.getByTestId("alerts-unconfirmed").getByRole("link", { name: "Confirm it in Settings" })).toHaveAttribute("href", "/dashboard/settings");
  // The defaults: quota and tracked-URL alerts on, bulk jobs off; the test event is not a mail.
  await expect(page.getByTestId("email-quota.exhausted")).toBeChecked();
  await expect(page.getByTestId("email-bulk.completed")).not.toBeChecked();
  await expect(page.getByTestId("email-webhook.test")).toHaveCount(0);

  for (const [label, on] of [[/Bulk job finished/, true], [/Daily quota used up/, false], [/Weekly digest/, false]] as const) {
    const saved = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/dashboard/alerts" && r.request().method() === "PUT" && r.ok());
    await page.getByLabel(label).setChecked(on);
    await saved;
  }

  const increase = page.getByLabel("Growth of at least");
  const ratio = page.getByLabel("And at least × the count before");
  const save = page.getByRole("button", { name: "Save thresholds" });
  await expect(save).toBeDisabled();
  await increase.fill("0");
  await ratio.fill("1.05");
  await save.click();
  await expect(increase).toHaveAttribute("aria-invalid", "true");
  await expect(ratio).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("A number from 1.1 to 1,000.")).toBeVisible();
  await increase.fill("250");
  await ratio.fill("1.5");
  await save.click();
  await expect(page.getByRole("status").filter({ hasText: "Spike thresholds saved." })).toBeVisible();

  await page.reload();
  await expect(page.getByTestId("email-bulk.completed")).toBeChecked();
  await expect(page.getByTestId("email-quota.exhausted")).not.toBeChecked();
  await expect(page.getByTestId("email-quota.warning")).toBeChecked();
  await expect(page.getByTestId("email-digest")).not.toBeChecked();
  await expect(increase).toHaveValue("250");
  await expect(ratio).toHaveValue("1.5");

  // The route checks what the page checks (and refuses cross-site writes, like every dashboard mutation).
  const refused = await page.request.put("/api/dashboard/alerts", { data: { spikeRatio: 1 }, headers: { origin: E2E_BASE_URL } });
  expect(refused.status()).toBe(422);
  const crossSite = await page.request.put("/api/dashboard/alerts", { data: { digest: true }, headers: { origin: "https://evil.example" } });
  expect(crossSite.status()).toBe(403);
});

test("webhooks: empty, a refused URL, added with the secret shown once, a test delivered and logged, disable, roll, delete", async ({
  signedIn: page,
  account,
}) => {
  const receiver = await startReceiver();
  try {
    await page.goto("/dashboard/alerts");
    await expect(page.getByText("No webhook endpoints yet.")).toBeVisible();

    // The API's refusal shows in the form.
    await page.getByRole("button", { name: "Add endpoint…" }).click();
    const form = page.getByRole("dialog", { name: "Add a webhook endpoint" });
    await form.getByRole("button", { name: "Add endpoint" }).click();
    await expect(form.getByText("Enter the endpoint's URL.")).toBeVisible();
    await form.getByLabel("Endpoint URL").fill("ftp://example.com/hook");
    await form.getByRole("button", { name: "Add endpoint" }).click();
    await expect(form.getByRole("alert")).toContainText("only http:// and https:// URLs can receive webhooks");
    await form.getByRole("button", { name: "Cancel" }).click();
    await expect(form).toBeHidden();

    // Every dashboard answer from here on, but the one that creates the endpoint, must leave its secret out.
    const answers: { path: string; body: string; cacheControl: string | undefined }[] = [];
    page.on("response", async (response) => {
      const path = new URL(response.url()).pathname;
      if (!path.startsWith("/api/dashboard/") && !path.startsWith("/dashboard")) return;
      answers.push({ path: `${response.request().method()} ${path}`, body: await response.text().catch(() => ""), cacheControl: response.headers()["cache-control"] });
    });
    const secret = await addEndpoint(page, receiver.url, { description: "e2e receiver" });
    await expect(endpoints(page)).toHaveCount(1);
    const endpoint = endpoints(page).first();
    await expect(endpoint).toContainText(receiver.url);
    await expect(endpoint).toContainText("e2e receiver");
    await expect(endpoint.getByTestId("endpoint-state")).toHaveText("Enabled");
    await expect(endpoint).toContainText("No successful delivery yet.");
    await page.reload();
    await expect(endpoints(page)).toHaveCount(1);
    await expect(page.getByText(secret)).toHaveCount(0);
    const created = answers.filter((a) => a.path === "POST /api/dashboard/webhooks");
    expect(created).toHaveLength(1);
    expect(created[0]!.cacheControl).toBe("no-store");
    expect(answers.filter((a) => a !== created[0] && a.body.includes(secret)).map((a) => a.path)).toEqual([]);
    expect(JSON.stringify((await api("/v2/webhooks", account.apiKey)).body)).not.toContain(secret);

    // Test: the receiver gets a signed webhook.test, and the log shows the delivery.
    await endpoint.getByRole("button", { name: "Send test" }).click();
    await expect(endpoint.getByRole("status").filter({ hasText: "Test event sent" })).toHaveText("Test event sent: it shows in the delivery log.");
    await expect.poll(() => receiver.received.length).toBe(1);
    expect(receiver.received[0]!.body.type).toBe("webhook.test");
    expect(receiver.received[0]!.headers["webhook-signature"]).toMatch(/^v1,/);
    const delivery = endpoint.getByTestId("webhook-delivery");
    await expect(delivery).toHaveCount(1);
    await expect(delivery).toContainText("webhook.test");
    await expect(delivery.getByTestId("delivery-result")).toHaveText("OK");
    await expect(delivery).toContainText("204");
    await endpoint.getByRole("button", { name: "Hide delivery log" }).click();
    await expect(delivery).toBeHidden();
    await page.reload();
    await expect(endpoint).toContainText(/Last delivered (just now|1 min ago)/);

    // Disable, and enable again.
    await endpoint.getByRole("button", { name: "Disable" }).click();
    await expect(endpoint.getByTestId("endpoint-state")).toHaveText("Disabled");
    await expect(endpoint.getByRole("button", { name: "Send test" })).toBeDisabled();
    await endpoint.getByRole("button", { name: "Enable" }).click();
    await expect(endpoint.getByTestId("endpoint-state")).toHaveText("Enabled");

    // Roll: asks first, then shows the new secret once.
    await endpoint.getByRole("button", { name: "Roll secret…" }).click();
    const roll = page.getByRole("dialog", { name: "Roll this endpoint's secret?" });
    await roll.getByRole("button", { name: "Roll secret" }).click();
    const rolled = page.getByRole("dialog", { name: "The endpoint's new secret" });
    const newSecret = (await rolled.getByTestId("webhook-secret").textContent())!;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(secret);
    await expect(rolled).toContainText("Deliveries are signed with both secrets until");
    await rolled.getByRole("button", { name: "Done" }).click();
    await expect(rolled).toBeHidden();
    await expect(page.getByText(newSecret)).toHaveCount(0);

    // Delete: Cancel keeps it; confirming removes it.
    await endpoint.getByRole("button", { name: "Delete…" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete this endpoint?" });
    await expect(confirm).toContainText(receiver.url);
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(endpoints(page)).toHaveCount(1);
    await endpoint.getByRole("button", { name: "Delete…" }).click();
    await confirm.getByRole("button", { name: "Delete endpoint" }).click();
    await expect(page.getByText("No webhook endpoints yet.")).toBeVisible();
    expect((await api("/v2/webhooks", account.apiKey)).body).toEqual({ data: [] });
  } finally {
    await receiver.close();
  }
});

test("a failed delivery shows the receiver's status, and Retry sends it again at once", async ({ signedIn: page }) => {
  // The first attempt and its automatic retry (5 s later) fail; the third, planned 5 min after, is Retry's.
  const receiver = await startReceiver((n) => (n <= 2 ? 500 : 200));
  try {
    await page.goto("/dashboard/alerts");
    await addEndpoint(page, receiver.url, { format: /Standard Webhooks/, only: ["Tracked URL spike"] });
    const endpoint = endpoints(page).first();
    await expect(endpoint).toContainText("Tracked URL spike");
    await endpoint.getByRole("button", { name: "Send test" }).click();
    const failed = endpoint.getByTestId("webhook-delivery").filter({ hasText: "500" });
    await expect(failed).toHaveCount(2);
    await expect(failed.getByTestId("delivery-result")).toHaveText(["Failed", "Failed"]);
    await failed.first().getByRole("button", { name: /^Retry the webhook.test delivery/ }).click();
    await expect(endpoint.getByTestId("webhook-delivery").filter({ hasText: "200" }).getByTestId("delivery-result")).toHaveText("OK");
    expect(receiver.received.map((r) => r.body.type)).toEqual(["webhook.test", "webhook.test", "webhook.test"]);
  } finally {
    await receiver.close();
  }
});

/** Stores an event for the account as the alert triggers would (what no API creates on demand). */
function seedEvent(email: string, type: string, data: unknown, at: number) {
  withDatabase((db) => {
    const accountId = db.prepare<[string], string>("SELECT id FROM account WHERE email = ?").pluck().get(email)!;
    db.prepare("INSERT INTO event (id, account_id, type, data, created_at) VALUES (?, ?, ?, ?, ?)").run(
      `evt_e2e${randomUUID().replaceAll("-", "")}`,
      accountId,
      type,
      JSON.stringify(data),
      new Date(at).toISOString().replace("Z", "+00:00"),
    );
  });
}

async function trackedAndCounted(account: E2EAccount, url: string) {
  await trackByApi(account, [url]);
  await expect
    .poll(async () => ((await api(`/v2/tracked/url?url=${encodeURIComponent(url)}`, account.apiKey)).body as { last_refreshed_at: string | null }).last_refreshed_at)
    .not.toBeNull();
}

test("spikes and milestones are marked on a URL's charts and listed on the overview", async ({ signedIn: page, account }) => {
  const url = `https://marks-${Date.now().toString(36)}.example.com/post`;
  const other = `https://marks-other-${Date.now().toString(36)}.example.com/post`;
  await trackedAndCounted(account, url);
  const hour = 3_600_000;
  seedEvent(account.email, "tracked_url.spike", { url, network: "facebook", from: 120, to: 1450, window_hours: 24 }, Date.now() - 2 * hour);
  seedEvent(account.email, "tracked_url.milestone", { url, total: 1450, milestone: 1000 }, Date.now() - hour);
  seedEvent(account.email, "tracked_url.milestone", { url: other, total: 120, milestone: 100 }, Date.now() - hour);

  await page.goto(`/dashboard/urls/view?url=${encodeURIComponent(url)}`);
  const total = page.getByTestId("history-total");
  const totalMarks = total.getByRole("list", { name: "Alerts marked on the chart" }).getByRole("listitem");
  await expect(totalMarks).toHaveCount(2);
  await expect(totalMarks.first()).toContainText("Facebook spike, 120 → 1,450 in 24 h");
  await expect(totalMarks.last()).toContainText("passed 1,000 (total 1,450)");
  await expect(total.getByTestId("chart-mark-spike")).toHaveCount(1);
  await expect(total.getByTestId("chart-mark-milestone")).toHaveCount(1);
  // A network's chart marks its own spikes only.
  await expect(page.getByTestId("history-facebook").getByRole("list", { name: "Alerts marked on the chart" }).getByRole("listitem")).toHaveCount(1);
  await expect(page.getByTestId("history-pinterest").getByRole("list", { name: "Alerts marked on the chart" })).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath("url-marks.png"), fullPage: true });

  await page.goto("/dashboard");
  const recent = page.getByTestId("recent-alerts").getByRole("listitem");
  await expect(recent).toHaveCount(3);
  await expect(recent.first()).toContainText("Milestone");
  await recent.filter({ hasText: "Facebook spike" }).getByRole("link").click();
  await expect(page).toHaveURL(/\/dashboard\/urls\/view\?url=/);
});

test("the page with an endpoint and its log passes axe in light and dark, fits a phone, and looks right", async ({ signedIn: page }) => {
  const receiver = await startReceiver();
  try {
    await page.goto("/dashboard/alerts");
    await addEndpoint(page, receiver.url, { format: /Slack/, description: "Team channel" });
    await addEndpoint(page, `${receiver.url}/second`, { only: ["Daily quota used up", "Tracked URL milestone"] });
    const first = endpoints(page).first();
    await first.getByRole("button", { name: "Send test" }).click();
    await expect(first.getByTestId("webhook-delivery")).toHaveCount(1);
    await endpoints(page).last().getByRole("button", { name: "Disable" }).click();
    await expect(endpoints(page).last().getByTestId("endpoint-state")).toHaveText("Disabled");

    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      for (const colorScheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme });
        if (width === 390) await expectNoPageOverflow(page);
        const { violations } = await new AxeBuilder({ page }).analyze();
        expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`), `${width} px, ${colorScheme}`).toEqual([]);
        await page.screenshot({ path: test.info().outputPath(`alerts-${width}-${colorScheme}.png`), fullPage: true });
      }
    }
    await page.getByRole("button", { name: "Add endpoint…" }).click();
    await expectNoPageOverflow(page);
    await page.screenshot({ path: test.info().outputPath("alerts-add-390-dark.png") });
    await page.getByLabel("Endpoint URL").fill(`${receiver.url}/third`);
    await page.getByRole("dialog").getByRole("button", { name: "Add endpoint" }).click();
    await expect(page.getByRole("dialog", { name: "Endpoint added" })).toBeVisible();
    await page.screenshot({ path: test.info().outputPath("alerts-secret-390-dark.png") });
  } finally {
    await receiver.close();
  }
});
