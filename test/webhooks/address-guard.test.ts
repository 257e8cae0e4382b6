import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { HostLookup } from "../../lib/net/guarded-agent.ts";
import { createWebhookPoster, type PosterOptions } from "../../lib/webhooks/post-webhook.ts";
import { postgresSkipReason, postgresStoreDatabase, sqliteStoreDatabase, type StoreDatabase } from "../support/stores.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver.ts";
import { webhookFixture } from "../support/webhooks.ts";

/**
 * Webhook URLs go through the imports' address guard: without WEBHOOK_ALLOW_PRIVATE_HOSTS, loopback, private
 * and reserved addresses are refused, whether the URL names one or a host name's DNS answer does.
 */
const PUBLIC = { allowPrivateHosts: false, timeoutMs: 2_000 };
const WEBHOOK = { body: "{}", headers: { "content-type": "application/json" } };
const answers =
  (...addresses: string[]): HostLookup =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
});

async function post(url: string, options: Partial<PosterOptions> = {}) {
  const poster = createWebhookPoster({ ...PUBLIC, ...options });
  try {
    return await poster.post(url, WEBHOOK);
  } finally {
    await poster.close();
  }
}

describe("the address guard", () => {
  it("refuses loopback, private and reserved addresses in the URL, in every spelling", async () => {
    for (const [url, address] of [
      [receiver.url("/x"), "127.0.0.1"],
      [`http://0x7f.1:${receiver.port}/x`, "127.0.0.1"],
      [`http://[::1]:${receiver.port}/x`, "::1"],
      [`http://[::ffff:127.0.0.1]:${receiver.port}/x`, "::ffff:7f00:1"],
      ["http://169.254.169.254/latest/meta-data", "169.254.169.254"],
      ["http://10.0.0.1/hook", "10.0.0.1"],
    ]) {
      const outcome = await post(url!);
      expect(outcome).toMatchObject({ statusCode: null, ok: false });
      expect(outcome.error).toBe(`refused address ${address}: loopback, private, link-local and reserved addresses are not delivered to (WEBHOOK_ALLOW_PRIVATE_HOSTS)`);
    }
    expect(await post(`http://localhost:${receiver.port}/x`)).toMatchObject({ ok: false, error: expect.stringMatching(/^refused host localhost: the URL must name a public host/) });
    expect(receiver.requests).toHaveLength(0);
  });

  it("refuses a host name whose DNS answer is loopback, checked on the addresses connected to", async () => {
    const outcome = await post(`http://hooks.example.com:${receiver.port}/x`, { lookup: answers("127.0.0.1") });
    expect(outcome.error).toBe("refused address 127.0.0.1 (hooks.example.com resolves to it): loopback, private, link-local and reserved addresses are not delivered to (WEBHOOK_ALLOW_PRIVATE_HOSTS)");
    // One private address among public ones is enough to refuse.
    expect((await post(`http://mixed.example.com:${receiver.port}/x`, { lookup: answers("93.184.215.14", "10.1.2.3") })).error).toMatch(/^refused address 10\.1\.2\.3 \(mixed\.example\.com/);
    expect(receiver.requests).toHaveLength(0);
    // The same name, its answer standing in for a public address, is delivered to.
    expect(await post(`http://hooks.example.com:${receiver.port}/x`, { lookup: answers("127.0.0.1"), alsoPublic: ["127.0.0.1"] })).toMatchObject({ statusCode: 204, ok: true, error: null });
    expect(receiver.at("/x")).toHaveLength(1);
  });

  it("says when a host name does not resolve, and lets loopback through with WEBHOOK_ALLOW_PRIVATE_HOSTS", async () => {
    const notFound = Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" });
    expect((await post("http://no-such-host.example.com/x", { lookup: () => Promise.reject(notFound) })).error).toBe("host no-such-host.example.com not found (ENOTFOUND)");
    expect(await post(receiver.url("/allowed"), { allowPrivateHosts: true })).toMatchObject({ statusCode: 204, ok: true });
    expect(await post(`http://localhost:${receiver.port}/allowed`, { allowPrivateHosts: true })).toMatchObject({ statusCode: 204, ok: true });
  });
});

const skipPostgres = (await postgresSkipReason("test/webhooks/address-guard.test.ts")) !== undefined;
describe.each([
  { name: "SQLite", database: sqliteStoreDatabase, skip: false },
  { name: "PostgreSQL", database: postgresStoreDatabase, skip: skipPostgres },
])("a refused address in the delivery log on $name", ({ database, skip }) => {
  let db: StoreDatabase;
  const hooks = webhookFixture(() => db, () => Date.UTC(2026, 10, 27, 9));
  beforeAll(async () => {
    if (!skip) db = await database();
  });
  afterEach(() => hooks.stopWorkers());
  afterAll(async () => {
    await db?.drop();
  });

  it.skipIf(skip)("is a failed attempt, retried on the schedule, with the reason", async () => {
    const account = await hooks.account();
    const endpoint = await hooks.endpoint(account.id, `http://rebound.example.com:${receiver.port}/guarded`);
    await hooks.emit(account.id);
    expect(await hooks.worker({ allowPrivateHosts: false, lookup: answers("127.0.0.1") }).runOnce()).toBe(1);
    const [attempt] = await hooks.kit.deliveries.attempts(endpoint.id, 10);
    expect(attempt).toMatchObject({ statusCode: null, ok: false, nextAttemptAt: Date.UTC(2026, 10, 27, 9) + 5_000 });
    expect(attempt!.error).toMatch(/^refused address 127\.0\.0\.1 \(rebound\.example\.com resolves to it\)/);
    expect(receiver.at("/guarded")).toHaveLength(0);
  });
});
