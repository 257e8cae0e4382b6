import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashApiKey } from "../../lib/keys/api-key.ts";
import { expectError } from "../support/api-error.ts";
import { bearerJson } from "../support/bearer.ts";
import { startTestService, type TestService } from "../support/service.ts";

/**
 * The key routes through the real service (SQLite here, PostgreSQL in the `scale` project): create, list, roll
 * with grace, revoke, expiry, scopes on v1 and v2, and the refusals. The clock is the test's.
 */
let svc: TestService;
let clock = Date.UTC(2026, 10, 27, 12);
const HOUR = 3_600_000;

beforeAll(async () => {
  svc = await startTestService({}, { now: () => clock, worker: false });
});
afterAll(() => svc.close());

type Json = Record<string, unknown>;
const call = (key: string, method: string, path: string, body?: unknown) => svc.get(path, bearerJson(key, method, body));
async function createKey(key: string, body: Json): Promise<{ id: string; key: string; [field: string]: unknown }> {
  const res = await call(key, "POST", "/v2/keys", body);
  expect(res.status).toBe(201);
  return res.json();
}
const COUNT_URL = "/v1.0/?url=https%3A%2F%2Fexample.com%2Fkeys";

describe("POST /v2/keys", () => {
  it("answers 201 with the key once: 40 hex characters, its prefix, scopes and times; the list never shows it", async () => {
    const { apiKey } = await svc.account();
    const res = await call(apiKey, "POST", "/v2/keys", { name: "  WordPress  ", scopes: ["counts:read", "account:read"], expires_at: new Date(clock + 30 * 24 * HOUR).toISOString() });
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const made = await res.json();
    expect(made).toEqual({
      id: expect.stringMatching(/^key_[0-9a-f]{24}$/),
      name: "WordPress",
      key: expect.stringMatching(/^[0-9a-f]{40}$/),
      prefix: made.key.slice(0, 8),
      scopes: ["counts:read", "account:read"],
      created_at: new Date(clock).toISOString(),
      expires_at: new Date(clock + 30 * 24 * HOUR).toISOString(),
    });
    const list = await (await call(apiKey, "GET", "/v2/keys")).json();
    expect(list.data.map((key: Json) => key.name).sort()).toEqual(["Default", "WordPress"]);
    const listed = list.data.find((key: Json) => key.id === made.id);
    expect(listed).toEqual({ ...made, key: undefined, last_used_at: null, revoked_at: null });
    const text = JSON.stringify(list);
    expect(text).not.toContain(made.key);
    expect(text).not.toContain(hashApiKey(made.key));
    expect(await (await call(apiKey, "GET", `/v2/keys/${made.id}`)).json()).toEqual(listed);
  });

  it("refuses a bad body with 400 and says why; at most 50 keys", async () => {
    const { apiKey } = await svc.account();
    for (const body of [{ name: "", scopes: ["counts:read"] }, { name: "x", scopes: [] }, { name: "x", scopes: ["root"] }, { name: "x", scopes: ["counts:read"], extra: 1 }, { name: "x", scopes: ["counts:read"], expires_at: new Date(clock - 1000).toISOString() }]) {
      await expectError(await call(apiKey, "POST", "/v2/keys", body), 400, "invalid_body");
    }
    await Promise.all(Array.from({ length: 49 }, (_, i) => createKey(apiKey, { name: `k${i}`, scopes: ["counts:read"] })));
    const refused = await expectError(await call(apiKey, "POST", "/v2/keys", { name: "one too many", scopes: ["counts:read"] }), 400, "too_many_keys");
    expect(refused.Error).toMatch(/at most 50/);
  });

  it("a key grants only scopes it has: 403 insufficient_scope", async () => {
    const { apiKey } = await svc.account();
    const limited = await createKey(apiKey, { name: "key admin", scopes: ["keys:write", "counts:read"] });
    await expectError(await call(limited.key, "POST", "/v2/keys", { name: "x", scopes: ["counts:read", "bulk:write"] }), 403, "insufficient_scope");
    const [defaultKey] = (await (await call(limited.key, "GET", "/v2/keys")).json()).data.filter((key: Json) => key.name === "Default");
    await expectError(await call(limited.key, "POST", `/v2/keys/${defaultKey.id}/roll`, { grace_seconds: 0 }), 403, "insufficient_scope");
    await expectError(await call(limited.key, "DELETE", `/v2/keys/${defaultKey.id}`), 403, "insufficient_scope");
    expect((await createKey(limited.key, { name: "share buttons", scopes: ["counts:read"] })).scopes).toEqual(["counts:read"]);
  });
});

describe("scopes", () => {
  it("a counts:read key serves v1 counts as before, and every other route answers 403 insufficient_scope naming the scope", async () => {
    const { apiKey } = await svc.account();
    const counts = await createKey(apiKey, { name: "counts", scopes: ["counts:read"] });
    const res = await svc.get(`${COUNT_URL}&apikey=${counts.key}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toHaveProperty("Facebook");
    const quota = await expectError(await svc.get(`/v1.0/quota?apikey=${counts.key}`), 403, "insufficient_scope");
    expect(quota.Error).toBe("This key lacks the scope account:read, which this endpoint needs: use a key that has it, or create one.");
    await expectError(await call(counts.key, "GET", "/v2/keys"), 403, "insufficient_scope");
    await expectError(await call(counts.key, "POST", "/v2/tracked", { urls: ["https://example.com/a"] }), 403, "insufficient_scope");
  });
});

describe("roll and revoke", () => {
  it("a roll answers a new key; the old one works through its grace, then answers 401 api_key_expired", async () => {
    const { apiKey } = await svc.account();
    const old = await createKey(apiKey, { name: "deploy", scopes: ["counts:read", "account:read"] });
    const res = await call(apiKey, "POST", `/v2/keys/${old.id}/roll`, { grace_seconds: 3600 });
    expect(res.status).toBe(201);
    const rolled = await res.json();
    expect(rolled).toMatchObject({ name: "deploy", scopes: ["counts:read", "account:read"], key: expect.stringMatching(/^[0-9a-f]{40}$/) });
    expect(rolled.key).not.toBe(old.key);
    const start = clock;
    try {
      expect((await svc.get(`/v1.0/quota?apikey=${old.key}`)).status).toBe(200);
      clock = start + HOUR - 1;
      expect((await svc.get(`/v1.0/quota?apikey=${old.key}`)).status).toBe(200);
      clock = start + HOUR;
      const expired = await expectError(await svc.get(`/v1.0/quota?apikey=${old.key}`), 401, "api_key_expired");
      expect(expired.Error).toContain(new Date(start + HOUR).toISOString());
      expect((await svc.get(`/v1.0/quota?apikey=${rolled.key}`)).status).toBe(200);
    } finally {
      clock = start;
    }
  });

  it("a roll without a body keeps the old key a day; grace_seconds past 7 days is refused", async () => {
    const { apiKey } = await svc.account();
    const old = await createKey(apiKey, { name: "ci", scopes: ["counts:read"] });
    await expectError(await call(apiKey, "POST", `/v2/keys/${old.id}/roll`, { grace_seconds: 604_801 }), 400, "invalid_body");
    expect((await call(apiKey, "POST", `/v2/keys/${old.id}/roll`)).status).toBe(201);
    const listed = (await (await call(apiKey, "GET", `/v2/keys/${old.id}`)).json()) as Json;
    expect(listed.expires_at).toBe(new Date(clock + 24 * HOUR).toISOString());
  });

  it("a rolled key cannot be rolled again (409 key_not_rollable), even twice at once; the new key keeps the creator's expiry", async () => {
    const { apiKey } = await svc.account();
    const expiresAt = new Date(clock + 30 * 24 * HOUR).toISOString();
    const old = await createKey(apiKey, { name: "deploy", scopes: ["counts:read"], expires_at: expiresAt });
    const both = await Promise.all([0, 1].map(() => call(apiKey, "POST", `/v2/keys/${old.id}/roll`, { grace_seconds: 0 })));
    expect(both.map((res) => res.status).sort()).toEqual([201, 409]);
    const refused = await expectError(both.find((res) => res.status === 409)!, 409, "key_not_rollable");
    const rolled = await both.find((res) => res.status === 201)!.json();
    expect(refused.Error).toContain("already rolled");
    expect(rolled.expires_at).toBe(expiresAt);
    // With grace 0 the old key is expired at once: no roll of it hands out a dead key.
    await expectError(await call(apiKey, "POST", `/v2/keys/${old.id}/roll`, { grace_seconds: 0 }), 409, "key_not_rollable");
    const next = await call(apiKey, "POST", `/v2/keys/${rolled.id}/roll`, { grace_seconds: 3600 });
    expect(next.status).toBe(201);
    const newest = await next.json();
    expect(newest.expires_at).toBe(expiresAt);
    await expectError(await call(apiKey, "POST", `/v2/keys/${rolled.id}/roll`, { grace_seconds: 3600 }), 409, "key_not_rollable");
    expect((await svc.get(`${COUNT_URL}&apikey=${newest.key}`)).status).toBe(200);
  });

  it("revoked keys do not count towards the 50, and a roll at the limit is allowed", async () => {
    const { apiKey } = await svc.account();
    const made = await Promise.all(Array.from({ length: 49 }, (_, i) => createKey(apiKey, { name: `k${i}`, scopes: ["counts:read"] })));
    await expectError(await call(apiKey, "POST", "/v2/keys", { name: "one too many", scopes: ["counts:read"] }), 400, "too_many_keys");
    expect((await call(apiKey, "POST", `/v2/keys/${made[0]!.id}/roll`, { grace_seconds: 0 })).status).toBe(201);
    expect((await call(apiKey, "DELETE", `/v2/keys/${made[1]!.id}`)).status).toBe(200);
    await createKey(apiKey, { name: "in its place", scopes: ["counts:read"] });
    await expectError(await call(apiKey, "POST", "/v2/keys", { name: "one too many", scopes: ["counts:read"] }), 400, "too_many_keys");
  });

  it("a revoked key answers 401 invalid_api_key from the next request on, and the account is mailed", async () => {
    const { apiKey, email } = await svc.account();
    const doomed = await createKey(apiKey, { name: "leaked", scopes: ["counts:read"] });
    expect((await svc.get(`${COUNT_URL}&apikey=${doomed.key}`)).status).toBe(200);
    const res = await call(apiKey, "DELETE", `/v2/keys/${doomed.id}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: doomed.id, revoked_at: new Date(clock).toISOString() });
    await expectError(await svc.get(`${COUNT_URL}&apikey=${doomed.key}`), 401, "invalid_api_key");
    await expectError(await call(apiKey, "POST", `/v2/keys/${doomed.id}/roll`, { grace_seconds: 0 }), 409, "key_not_rollable");
    expect(await svc.prisma.mailMessage.findMany({ where: { recipient: email }, select: { kind: true } })).toEqual([{ kind: "api_key_revoked" }]);
  });

  it("a key that reached its expiry answers 401 api_key_expired", async () => {
    const { apiKey } = await svc.account();
    const short = await createKey(apiKey, { name: "trial", scopes: ["counts:read"], expires_at: new Date(clock + HOUR).toISOString() });
    const start = clock;
    try {
      clock = start + HOUR;
      await expectError(await svc.get(`${COUNT_URL}&apikey=${short.key}`), 401, "api_key_expired");
    } finally {
      clock = start;
    }
  });

  it("another account's key, or none, is 404 key_not_found", async () => {
    const mine = await svc.account();
    const theirs = await svc.account();
    const their = await createKey(theirs.apiKey, { name: "theirs", scopes: ["counts:read"] });
    for (const [method, path] of [["GET", `/v2/keys/${their.id}`], ["DELETE", `/v2/keys/${their.id}`], ["POST", `/v2/keys/${their.id}/roll`], ["GET", "/v2/keys/key_nope"]] as const) {
      await expectError(await call(mine.apiKey, method, path), 404, "key_not_found");
    }
    expect((await svc.get(`${COUNT_URL}&apikey=${their.key}`)).status).toBe(200);
  });
});
