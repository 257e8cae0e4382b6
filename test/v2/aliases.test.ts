import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { headlineSum } from "../support/headline-sum.ts";
import { until } from "../support/processes.ts";
import { startTestService, type TestService } from "../support/service.ts";
import { bearer } from "../support/bearer.ts";

/** A tracked URL's aliases and variants through API v2, on the real service, networks in the sandbox. */
let svc: TestService;
let seq = 0;

beforeAll(async () => {
  svc = await startTestService({ REFRESH_POLL_MS: "100" });
});
afterAll(() => svc.close());

const post = (key: string, body: unknown) =>
  svc.get("/v2/tracked", { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify(body) });

describe("a tracked URL's aliases and variants", () => {
  const setCounts = (url: string, facebook: Record<string, number>, pinterest: number) =>
    fetch(`${svc.sandboxOrigin}/__sandbox/counts`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ url, facebook, pinterest }) });

  it("counts aliases and variants with the URL, Facebook's identical engagement once, and shows the breakdown", async () => {
    const { apiKey, email } = await svc.account("plus");
    const url = `https://www.folds-example.com/post-${++seq}`;
    const alias = `https://old.folds-example.com/post-${seq}`;
    const bareHttps = url.replace("://www.", "://");
    const engagement = { reaction_count: 5, comment_count: 2, share_count: 3, comment_plugin_count: 0 };
    for (const form of [url, bareHttps]) await setCounts(form, engagement, 1);
    await setCounts(url.replace("https:", "http:"), { reaction_count: 1, comment_count: 0, share_count: 0, comment_plugin_count: 0 }, 1);
    await setCounts(bareHttps.replace("https:", "http:"), { reaction_count: 0, comment_count: 0, share_count: 0, comment_plugin_count: 0 }, 1);
    await setCounts(alias, { reaction_count: 100, comment_count: 0, share_count: 0, comment_plugin_count: 0 }, 7);
    await svc.prisma.account.update({ where: { email }, data: { countVariants: true } });
    await post(apiKey, { urls: [url] });

    const put = await svc.get("/v2/tracked/aliases", {
      method: "PUT",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ url, aliases: [alias, url, alias] }),
    });
    expect(await put.json()).toEqual({ url, aliases: [alias] });
    const bad = await svc.get("/v2/tracked/aliases", {
      method: "PUT",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ url, aliases: ["http://127.0.0.1/"] }),
    });
    expect([bad.status, (await bad.json()).Type]).toEqual([400, "invalid_url"]);

    const detail = await until(
      "the refresh with the alias",
      async () => (await svc.get(`/v2/tracked/url?url=${encodeURIComponent(url)}`, bearer(apiKey))).json(),
      (d) => d.networks?.pinterest.count === 11,
      20_000,
    );
    expect(detail.count_variants).toBe(true);
    expect(detail.aliases).toEqual([alias]);
    expect(detail.forms.map((f: { kind: string }) => f.kind)).toEqual(["url", "variant", "variant", "variant", "alias"]);
    const folded = detail.forms.filter((f: { facebook_counted: boolean }) => !f.facebook_counted).map((f: { url: string }) => f.url);
    expect(folded).toEqual([bareHttps]);
    // 10 (the folded pair, once) + 1 + 0 + 100; Pinterest 1 × 4 + 7.
    expect(detail.networks.facebook.total_count).toBe(111);
    expect(detail.networks.pinterest.count).toBe(11);
    expect(detail.total).toBe(headlineSum(detail.networks));
    expect(detail.total - headlineSum({ ...detail.networks, facebook: undefined, pinterest: undefined })).toBe(122);
  });
});
