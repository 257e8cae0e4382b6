import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { expectError } from "../support/api-error.ts";
import { bearer } from "../support/bearer.ts";
import { newKey } from "../support/keys.ts";
import { startTestService, type TestService } from "../support/service.ts";
import { configureLogging } from "../../lib/log/log.ts";

/** The request log through the real service (SQLite here, PostgreSQL + Redis in the `scale` project). */
let svc: TestService;
const logged: string[] = [];

beforeAll(async () => {
  svc = await startTestService({}, { worker: false });
});
afterAll(() => svc.close());
afterEach(() => {
  vi.restoreAllMocks();
  configureLogging({ level: "info", format: "json" });
});

interface Entry {
  id: string;
  time: string;
  key_id: string | null;
  method: string;
  path: string;
  query: string;
  status: number;
  error_type: string | null;
  duration_ms: number;
  url: string | null;
  quota_spent: number;
  ip: string;
  user_agent: string | null;
}
type Page = { data: Entry[]; next_cursor: string | null };

const list = async (apiKey: string, query = ""): Promise<Page> => {
  const res = await svc.get(`/v2/requests${query}`, bearer(apiKey));
  expect(res.status).toBe(200);
  return (await res.json()) as Page;
};

/** The account's logged requests other than reads of the log itself, once `count` of them are written (within 100 ms of their answers). */
async function loggedRequests(apiKey: string, count: number): Promise<Entry[]> {
  for (let tries = 0; ; tries++) {
    const rows = (await list(apiKey, "?limit=100")).data.filter((row) => !row.path.startsWith("/v2/requests"));
    if (rows.length >= count || tries === 100) return rows;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("the request log", () => {
  it("logs each request a key made, without the key, with its status, error, quota spent, URL and network", async () => {
    // What the logger writes (after its redaction), and anything else printed.
    configureLogging({ level: "debug", format: "json" }, { write: (line: string) => void logged.push(line) });
    for (const method of ["log", "warn", "error", "info"] as const) {
      const original = console[method];
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        logged.push(args.map(String).join(" "));
        original(...args);
      });
    }
    const { apiKey } = await svc.account("business");
    const url = "https://example.com/post?x=1";
    const agent = { "user-agent": "request-log-test/1.0" };
    expect((await svc.get(`/v1.0/?url=${encodeURIComponent(url)}&apiKey=${apiKey}`, { headers: agent })).status).toBe(200);
    expect((await svc.get(`/v2/counts?url=${encodeURIComponent(url)}`, { headers: { ...agent, authorization: `Bearer ${apiKey}` } })).status).toBe(200);
    expect((await svc.get(`/v2/usage?apikey=${apiKey}`)).status).toBe(200);
    await expectError(await svc.get(`/v1.0/?url=not-a-url&apikey=${apiKey}`), 400, "invalid_url");
    await expectError(await svc.get(`/v2/bulk?bulk_id=nope`, bearer(apiKey)), 404, "bulk_not_found");
    const bulk = await svc.get(`/v1.0/bulk?apikey=${apiKey}`, { method: "POST", headers: { "content-type": "text/plain" }, body: "https://example.com/1\nhttps://example.com/2" });
    expect(bulk.status).toBe(200);
    // No key, a wrong one: no account to log them for.
    await expectError(await svc.get(`/v2/usage`), 401, "missing_api_key");
    await expectError(await svc.get(`/v2/usage?apikey=${"0".repeat(40)}`), 401, "invalid_api_key");

    const rows = await loggedRequests(apiKey, 6);
    expect(rows.map((row) => [row.method, row.path, row.status, row.error_type, row.quota_spent])).toEqual([
      ["POST", "/v1.0/bulk", 200, null, 0],
      ["GET", "/v2/bulk", 404, "bulk_not_found", 0],
      ["GET", "/v1.0/", 400, "invalid_url", 0],
      ["GET", "/v2/usage", 200, null, 0],
      ["GET", "/v2/counts", 200, null, 1],
      ["GET", "/v1.0/", 200, null, 1],
    ]);
    const [v1Count] = rows.slice(-1);
    expect(v1Count).toMatchObject({ query: `url=${encodeURIComponent(url)}`, url, ip: "127.0.0.0/24", user_agent: "request-log-test/1.0", key_id: expect.stringMatching(/^key_[0-9a-f]{24}$/) });
    expect(v1Count!.id).toMatch(/^req_[0-9a-z]{21}$/);
    expect(rows[1]!.query).toBe("bulk_id=nope");
    expect(rows.every((row) => row.duration_ms >= 0 && Date.parse(row.time) <= Date.now())).toBe(true);

    // Nowhere: not in any stored column, not in an answer, not in a log line.
    const stored = await svc.prisma.requestLogChunk.findMany();
    expect(JSON.stringify(stored, (_k, v) => (typeof v === "bigint" ? Number(v) : v))).not.toContain(apiKey);
    expect(JSON.stringify(rows)).not.toContain(apiKey);
    expect(logged.join("\n")).not.toContain(apiKey);

    const one = await svc.get(`/v2/requests/${v1Count!.id}`, bearer(apiKey));
    expect(await one.json()).toEqual(v1Count);
  });

  it("logs a key's refusals too: the request of a key without the scope is the account's to see, under that key", async () => {
    const { email, apiKey } = await svc.account("business");
    const limited = await newKey(svc.prisma, (await svc.accounts.idOf(email))!, ["counts:read"], "share buttons");
    expect((await svc.get(`/v1.0/quota?apikey=${limited}`)).status).toBe(403);
    const [refused] = await loggedRequests(apiKey, 1);
    expect(refused).toMatchObject({ path: "/v1.0/quota", status: 403, error_type: "insufficient_scope", key_id: expect.stringMatching(/^key_/) });
    const own = await svc.prisma.apiKey.findFirstOrThrow({ where: { name: "share buttons" } });
    expect(refused!.key_id).toBe(own.id);
  });

  it("filters by status class or code, error type, key, path and time, pages newest first, and keeps accounts apart", async () => {
    const { apiKey } = await svc.account("business");
    const { apiKey: otherKey } = await svc.account("business");
    await svc.get(`/v2/usage?apikey=${otherKey}`);
    const started = new Date().toISOString();
    for (let i = 0; i < 3; i++) await svc.get(`/v1.0/?url=${encodeURIComponent(`https://example.com/${i}`)}&apikey=${apiKey}`);
    await svc.get(`/v2/history?url=${encodeURIComponent("https://example.org/never")}`, bearer(apiKey));
    await svc.get(`/v1.0/?url=bad&apikey=${apiKey}`);
    const rows = await loggedRequests(apiKey, 5);
    expect(rows).toHaveLength(5);

    const paths = async (query: string) => (await list(apiKey, query)).data.map((row) => `${row.status} ${row.path}`);
    expect(await paths("?status=4xx")).toEqual(["400 /v1.0/", "404 /v2/history"]);
    expect(await paths("?status=404")).toEqual(["404 /v2/history"]);
    expect(await paths("?status=2XX&path=/v1.0/")).toEqual(["200 /v1.0/", "200 /v1.0/", "200 /v1.0/"]);
    expect(await paths("?error_type=invalid_url")).toEqual(["400 /v1.0/"]);
    expect(await paths("?key_id=key_none")).toEqual([]);
    // The key each request came with: the account's one key, so filtering by it finds all five.
    const keyId = rows[0]!.key_id!;
    expect(rows.every((row) => row.key_id === keyId)).toBe(true);
    expect((await paths(`?key_id=${keyId}`)).filter((row) => !row.includes("/v2/requests"))).toHaveLength(5);
    expect(await paths(`?path=/v1.0/&to=${encodeURIComponent(started)}`)).toEqual([]);
    expect((await paths(`?from=${encodeURIComponent(started)}&path=/v1.0/`)).length).toBe(4);

    const seen: string[] = [];
    let cursor: string | null = "";
    while (cursor !== null) {
      const page: Page = await list(apiKey, `?path=/v1.0/&limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      seen.push(...page.data.map((row) => row.id));
      cursor = page.next_cursor;
    }
    expect(seen).toEqual(rows.filter((row) => row.path === "/v1.0/").map((row) => row.id));

    // The other account sees none of these, and none by id.
    expect((await list(otherKey, "?path=/v1.0/")).data).toEqual([]);
    await expectError(await svc.get(`/v2/requests/${rows[0]!.id}`, bearer(otherKey)), 404, "request_not_found");
    await expectError(await svc.get(`/v2/requests/nope`, bearer(apiKey)), 404, "request_not_found");
  });

  it("refuses bad filters with a clear 400", async () => {
    const { apiKey } = await svc.account("business");
    for (const [query, message] of [
      ["status=abc", /status must be a class such as 4xx/],
      ["status=6xx", /status must be a class/],
      ["from=yesterday", /from must be an ISO 8601 time/],
      ["from=2026-11-27T10:00:00Z&to=2026-11-27T09:00:00Z", /from must be before to/],
      ["path=v1.0", /path must start with \//],
      ["limit=101", /limit/],
      ["cursor=bm9wZQ", /cursor: not a next_cursor/],
      ["colour=red", /unknown parameter/],
    ] as const) {
      const body = await expectError(await svc.get(`/v2/requests?${query}`, bearer(apiKey)), 400, "invalid_parameter");
      expect(body.Error).toMatch(message);
    }
  });
});
