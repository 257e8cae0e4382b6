import { E2E_BASE_URL, E2E_SANDBOX_URL } from "./env";
import { api, expect, expectNoPageOverflow, test } from "./fixtures";

/**
 * A network that did not report says why on a URL's page, and when it is tried again by the reader's clock.
 * The sandbox's Pinterest answers "-" (no count) for this test's own URL only, so no other spec is touched.
 */

interface Detail {
  last_refreshed_at: string | null;
  next_refresh_at: string | null;
  networks: { pinterest?: { status: string; reason?: string; retry_at?: string | null } };
}

test("a network without a count says why and when it is tried again, and what the reason means", async ({ signedIn: page, account }) => {
  const url = `https://reasons-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}.example.com/post`;
  const set = await fetch(`${E2E_SANDBOX_URL}/__sandbox/counts`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ url, pinterest: "-" }) });
  expect(set.status).toBe(200);
  const track = await fetch(`${E2E_BASE_URL}/v2/tracked`, {
    method: "POST",
    headers: { authorization: `Bearer ${account.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ urls: [url] }),
  });
  expect(track.status).toBe(200);
  let detail: Detail | undefined;
  await expect
    .poll(async () => {
      detail = (await api(`/v2/tracked/url?url=${encodeURIComponent(url)}`, account.apiKey)).body as Detail;
      return detail.last_refreshed_at;
    })
    .not.toBeNull();
  // Pinterest works (its state is ok): this URL's answer had no count, and the URL's next refresh asks again.
  expect(detail!.networks.pinterest).toMatchObject({ status: "unavailable", reason: "upstream_error", retry_at: detail!.next_refresh_at });

  await page.goto(`/dashboard/urls/view?url=${encodeURIComponent(url)}`);
  const reason = page.getByTestId("reason-pinterest");
  await expect(reason).toContainText("Upstream error — tried again at ");
  const local = await page.evaluate((at) => new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" }).format(Date.parse(at)), detail!.next_refresh_at!);
  await expect(reason).toContainText(local);
  await expect(page.getByTestId("url-pinterest")).toContainText("not reported");
  await expect(page.getByTestId("reason-facebook")).toHaveCount(0);
  // Contains, not equals: the networks spec throttles Tumblr meanwhile, and the legend explains that reason too.
  await expect(page.getByTestId("reason-legend")).toContainText("Upstream error: The network's last answer was an error, or had no count for this URL.");
  await page.screenshot({ path: test.info().outputPath("url-reason.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoPageOverflow(page);
  await page.screenshot({ path: test.info().outputPath("url-reason-phone.png"), fullPage: true });
});
