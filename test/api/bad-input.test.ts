import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError } from "../support/api-error.ts";
import { startTestService, type TestService } from "../support/service.ts";

const MAX_BODY = 65_536;

let svc: TestService;
let key: string;
let dedicatedKey: string;
let freeKey: string;
let seq = 0;

const freshUrl = () => `https://example.com/bad-input-${++seq}-${Math.random().toString(36).slice(2, 8)}`;

beforeAll(async () => {
  svc = await startTestService({ BULK_MAX_BODY_BYTES: String(MAX_BODY) });
  key = (await svc.account("business")).apiKey;
  dedicatedKey = (await svc.account("dedicated")).apiKey;
  freeKey = (await svc.account("free")).apiKey;
});
afterAll(() => svc.close());

const port = () => Number(new URL(svc.baseUrl).port);

/** One request on its own connection (no pooling), so a connection the server drops affects nothing else. */
function request(
  options: { method?: string; path: string; headers?: Record<string, string | number> },
  write?: (req: http.ClientRequest) => void,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request(
      { host: "127.0.0.1", port: port(), agent: false, method: options.method ?? "GET", path: options.path, headers: options.headers },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    // The server may answer and close before the whole body is written; only an error before any answer counts.
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    if (write) write(req);
    else req.end();
  });
}

/** Bytes straight onto a socket; resolves with everything the server sent back before closing. */
function rawRequest(bytes: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port(), "127.0.0.1", () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.setTimeout(10_000, () => socket.destroy(new Error("no answer from the server")));
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("error", reject);
    socket.on("close", () => resolve(Buffer.concat(chunks).toString("latin1")));
  });
}

const requestLine = (target: Buffer) =>
  Buffer.concat([Buffer.from("GET "), target, Buffer.from(" HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")]);

async function expectUp() {
  const res = await svc.get("/v1.0/status");
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ status: "up" });
}

describe("invalid url values", () => {
  it.each([
    ["not a url"],
    ["javascript:alert(1)"],
    ["ftp://example.com/file"],
    ["example.com/no-scheme"],
    ["//example.com/"],
    ["http://"],
    ["http://localhost/"],
    ["http://exa mple.com/"],
    ["http://example.com:99999/"],
    ["http://..com/"],
    ["<script>alert(1)</script>"],
    ["\u0000\u0001\u0002"],
    ["💥"],
    ["%"],
    ["http%3A%2F%2F"],
  ])("%j → 400 invalid_url", async (url) => {
    await expectError(await svc.get(`/v1.0/?url=${encodeURIComponent(url)}&apikey=${key}`), 400, "invalid_url");
  });

  it("refuses an over-long url (10,000 characters) with 400 invalid_url", async () => {
    const url = `https://example.com/${"x".repeat(10_000)}`;
    const body = await expectError(await svc.get(`/v1.0/?url=${encodeURIComponent(url)}&apikey=${key}`), 400, "invalid_url");
    expect(body.Error).toMatch(/2048/);
    await expectError(await svc.get(`/v1.1/?url=${url}&apikey=${key}`), 400, "invalid_url");
  });

  it("answers a request line too long for the HTTP parser with a 4xx, not a crash", async () => {
    const res = await request({ path: `/v1.0/?url=https://example.com/${"x".repeat(40_000)}&apikey=${key}` });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    await expectUp();
  });

  it("refuses a missing or empty url with 400 invalid_url, saying it is required", async () => {
    const missing = await expectError(await svc.get(`/v1.0/?apikey=${key}`), 400, "invalid_url");
    expect(missing.Error).toMatch(/required/);
    await expectError(await svc.get(`/v1.0/?url=&apikey=${key}`), 400, "invalid_url");
    await expectError(await svc.get(`/v1.1/?apikey=${key}`), 400, "invalid_url");
    await expectError(await svc.get(`/url?apikey=${key}`), 400, "invalid_url");
  });

  it("does not count refused urls against the quota", async () => {
    const before = (await (await svc.get(`/v1.0/quota?apikey=${freeKey}`)).json()).quota_used_today;
    await expectError(await svc.get(`/v1.0/?url=garbage&apikey=${freeKey}`), 400, "invalid_url");
    const after = (await (await svc.get(`/v1.0/quota?apikey=${freeKey}`)).json()).quota_used_today;
    expect(after).toBe(before);
  });
});

describe("hosts that are not public", () => {
  const PRIVATE = ["http://127.0.0.1/", "http://[::1]/", "http://0x7f.1/", "http://2130706433/", "http://10.1.2.3/", "http://192.168.0.1/", "http://169.254.169.254/", "http://[fe80::1]/", "http://localhost/", "http://app.localhost/"];

  it.each(PRIVATE)("%s is invalid_url and is never sent upstream", async (url) => {
    await svc.resetSandbox();
    const error = await expectError(await svc.get(`/v1.0/?url=${encodeURIComponent(url)}&apikey=${key}`), 400, "invalid_url");
    expect(error.Error).toMatch(/public host/);
    const stats = (await (await fetch(`${svc.sandboxOrigin}/__sandbox/stats`)).json()) as { facebook: { calls: number }; pinterest: { calls: number } };
    expect(stats.facebook.calls + stats.pinterest.calls).toBe(0);
  });

  it("drops them from a bulk job, which counts only the public ones", async () => {
    const publicUrl = freshUrl();
    const res = await svc.get(`/v1.0/bulk?apikey=${key}`, { method: "POST", headers: { "content-type": "text/plain" }, body: [...PRIVATE, publicUrl].join("\n") });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.count).toBe(1);
  });
});

describe("bytes that are not UTF-8", () => {
  it("percent-encoded: 4xx JSON in every parameter", async () => {
    await expectError(await svc.get(`/v1.0/?url=%FF%FE&apikey=${key}`), 400, "invalid_url");
    await expectError(await svc.get(`/v1.0/?url=%C3%28&apikey=${key}&x=%C3%28`), 400, "invalid_url");
    await expectError(await svc.get(`/v1.0/?url=${encodeURIComponent(freshUrl())}&apikey=%FF%FE`), 401, "invalid_api_key");
    await expectError(
      await svc.get(`/v1.0/?url=${encodeURIComponent(freshUrl())}&apikey=${key}&callback=%FF%FE`),
      400,
      "invalid_callback",
    );
    await expectError(await svc.get(`/v1.0/bulk?apikey=${key}&bulk_id=%FF%FE`), 404, "bulk_not_found");
    // A NUL byte (which PostgreSQL refuses in text) is no job either, on every stack.
    await expectError(await svc.get(`/v1.1/bulk?apikey=${key}&bulk_id=%CF%07%AD%00%CC%33%6D`), 404, "bulk_not_found");
    await expectError(await svc.get(`/v2/bulk?apikey=${key}&bulk_id=%00`), 404, "bulk_not_found");
    await expectError(await svc.get(`/v1.0/%FF%FE?url=x`), 404, "not_found");
  });

  it("a URL whose path holds percent-encoded bytes that are not UTF-8 is counted as sent", async () => {
    const url = `${freshUrl()}/%FF%FE`;
    const once = await svc.get(`/v1.0/?url=${encodeURIComponent(url)}&apikey=${key}`);
    expect(once.status).toBe(200);
    const twice = await svc.get(`/v1.0/?url=${encodeURIComponent(encodeURIComponent(url))}&apikey=${key}`);
    expect(twice.status).toBe(200);
    expect((await svc.stats()).facebookByUrl[url]).toBe(1);
  });

  it("a once-decoded URL with raw non-UTF-8 bytes is answered, never with a 5xx", async () => {
    const res = await svc.get(`/v1.0/?url=http%3A%2F%2Fexample.com%2F%FF%FE-${++seq}&apikey=${key}`);
    expect([200, 400]).toContain(res.status);
  });

  it("percent-encoded garbage in the key of a parameter is ignored", async () => {
    const res = await svc.get(`/v1.0/?%FF%FE=1&url=${encodeURIComponent(freshUrl())}&apikey=${key}`);
    expect(res.status).toBe(200);
  });

  it("raw bytes in the query: JSON 4xx when the parser lets them through, a 4xx in any case, and the service stays up", async () => {
    const target = Buffer.concat([Buffer.from("/v1.0/?url="), Buffer.from([0xff, 0xfe, 0x80]), Buffer.from(`&apikey=${key}`)]);
    const answer = await rawRequest(requestLine(target));
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
    // Node's HTTP parser refuses non-ASCII bytes in the request target before the app sees them; the
    // server still answers with the API's JSON error object.
    expect(answer).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toEqual({ Error: expect.any(String), Type: expect.any(String) });
    await expectUp();
  });

  it("raw garbage that is not HTTP at all does not take the service down", async () => {
    const answer = await rawRequest(Buffer.from([0x16, 0x03, 0x01, 0x00, 0xff, 0x00, 0x0d, 0x0a, 0x0d, 0x0a]));
    expect(answer === "" || /^HTTP\/1\.1 4\d\d/.test(answer)).toBe(true);
    await expectUp();
  });

  it("raw non-UTF-8 bytes in a bulk body are dropped like any invalid line", async () => {
    const body = Buffer.concat([Buffer.from("\xff\xfe\n", "latin1"), Buffer.from(`${freshUrl()}\n`), Buffer.from([0xc3, 0x28, 0x0a])]);
    const res = await request(
      { method: "POST", path: `/v1.0/bulk?apikey=${key}`, headers: { "content-type": "text/plain", "content-length": body.length } },
      (req) => req.end(body),
    );
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).count).toBe(1);
  });
});

describe("requests this server does not serve", () => {
  /** The status and error object of a raw request's answer; the connection must close or stay usable, not hang. */
  async function rawError(bytes: string) {
    const answer = await rawRequest(Buffer.from(bytes, "latin1"));
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
    expect(answer).toMatch(/content-type: application\/json/i);
    return { status, body: JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)) as { Error: string; Type: string } };
  }

  it.each([
    ["a WebSocket upgrade", `GET /v1.0/status HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`, 400],
    ["an h2c upgrade", `GET / HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\n\r\n`, 400],
    ["CONNECT", `CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n`, 405],
    ["an Expect other than 100-continue", `POST /v1.0/bulk HTTP/1.1\r\nHost: localhost\r\nExpect: foo\r\nContent-Length: 3\r\nConnection: close\r\n\r\n`, 417],
    ["HTTP/1.1 without a Host", `GET /v1.0/status HTTP/1.1\r\nConnection: close\r\n\r\n`, 400],
    ["a Host that is no host", `GET /v1.0/status HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n`, 400],
    ["a Host with a path", `GET /v1.0/status HTTP/1.1\r\nHost: evil.example/x\r\nConnection: close\r\n\r\n`, 400],
    ["a backslash in the path", `GET /\\evil.example/v1.0/status HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`, 400],
    ["a backslash in an API path", `GET /v1.0\\status HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`, 400],
  ])("%s gets a JSON error and the connection is released", async (_name, bytes, status) => {
    const answer = await rawError(bytes);
    expect(answer.status).toBe(status);
    expect(answer.body).toEqual({ Error: expect.any(String), Type: expect.any(String) });
    await expectUp();
  });

  it("serves HTTP/1.0 without a Host (it has none) as a request to this server", async () => {
    const answer = await rawRequest(Buffer.from(`GET /v1.0/status HTTP/1.0\r\n\r\n`));
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toEqual({ status: "up" });
  });

  it("answers a client that half-closes its side after the request, and charges it for what it reads", async () => {
    const account = await svc.account("free");
    const before = (await (await svc.get(`/v1.0/quota?apikey=${account.apiKey}`)).json()) as { quota_used_today: number };
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(port(), "127.0.0.1", () => {
        socket.end(`GET /v1.1/?url=${encodeURIComponent(freshUrl())}&apikey=${account.apiKey} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
      });
      const chunks: Buffer[] = [];
      socket.setTimeout(10_000, () => socket.destroy(new Error("no answer from the server")));
      socket.on("data", (c: Buffer) => chunks.push(c));
      socket.on("error", reject);
      socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toHaveProperty("Facebook");
    const after = (await (await svc.get(`/v1.0/quota?apikey=${account.apiKey}`)).json()) as { quota_used_today: number };
    expect(after.quota_used_today).toBe(before.quota_used_today + 1);
  });
});

describe("bulk bodies", () => {
  const bigBody = () => {
    const line = `https://example.com/${"y".repeat(1000)}\n`;
    return Buffer.from(line.repeat(Math.ceil((200 * 1024) / line.length)));
  };

  it(`refuses a 200 KB body over BULK_MAX_BODY_BYTES (${MAX_BODY}) with 413 body_too_large`, async () => {
    const body = bigBody();
    expect(body.length).toBeGreaterThan(200 * 1024 - 1);
    const res = await request(
      { method: "POST", path: `/v1.0/bulk?apikey=${key}`, headers: { "content-type": "text/plain", "content-length": body.length } },
      (req) => req.end(body),
    );
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual({ Error: expect.stringContaining(String(MAX_BODY)), Type: "body_too_large" });
    await expectUp();
  });

  it("reads off the rest of a refused body, so the next request on the connection is answered and not the body taken for one", async () => {
    const body = Buffer.from("GET /v1.0/nothing-here HTTP/1.1\r\nHost: localhost\r\n\r\n".repeat(4000));
    expect(body.length).toBeGreaterThan(MAX_BODY);
    const head = `POST /v1.0/bulk?apikey=${key} HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\n\r\n`;
    const answers = await rawRequest(Buffer.concat([Buffer.from(head), body, requestLine(Buffer.from("/v1.0/status"))]));
    expect(answers.match(/HTTP\/1\.1 \d{3}/g)).toEqual(["HTTP/1.1 413", "HTTP/1.1 200"]);
  });

  it("keeps reading a refused body while it comes, and cuts the connection once it stalls for a few seconds", async () => {
    const socket = net.connect(port(), "127.0.0.1");
    const received: Buffer[] = [];
    let answeredAt = 0;
    socket.on("data", (c: Buffer) => {
      answeredAt ||= Date.now();
      received.push(c);
    });
    const closedAt = new Promise<number>((resolve) => socket.on("close", () => resolve(Date.now())));
    socket.on("error", () => {});
    socket.write(`POST /v1.0/bulk?apikey=${key} HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nContent-Length: ${100 * MAX_BODY}\r\n\r\n`);
    // A quarter of the limit every 200 ms for 3 s, then nothing: the answer comes once the body is over the
    // limit, the rest is read while it keeps coming, and the connection is cut 5 to 10 s after it stops.
    let trickled = 0;
    const trickle = setInterval(() => socket.writable && socket.write(Buffer.alloc(MAX_BODY / 4, 0x61)), 200);
    const stopped = new Promise<number>((resolve) =>
      setTimeout(() => {
        clearInterval(trickle);
        resolve((trickled = Date.now()));
      }, 3_000),
    );
    try {
      const [stoppedAt, cutAt] = await Promise.all([stopped, closedAt]);
      expect(Buffer.concat(received).toString("latin1")).toMatch(/^HTTP\/1\.1 413/);
      expect(answeredAt).toBeLessThan(stoppedAt - 1_000);
      expect(cutAt - stoppedAt).toBeGreaterThan(4_000);
      expect(cutAt - stoppedAt).toBeLessThan(12_000);
    } finally {
      clearInterval(trickle);
      expect(trickled).toBeGreaterThan(0);
    }
  }, 30_000);

  it("stops reading a refused body that goes on for 64 MiB after its answer, and cuts the connection", async () => {
    const declared = 256 * 1024 * 1024;
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    const socket = net.connect(port(), "127.0.0.1");
    const received: Buffer[] = [];
    socket.on("data", (c: Buffer) => received.push(c));
    socket.on("error", () => {});
    let sent = 0;
    let sentWhenAnswered = -1;
    // As a client that never reads: it keeps writing whatever the answer, one chunk per turn of its event loop.
    const pump = () => {
      if (received.length > 0 && sentWhenAnswered < 0) sentWhenAnswered = sent;
      if (socket.destroyed || sent >= declared) return;
      sent += chunk.length;
      if (socket.write(chunk)) setImmediate(pump);
      else socket.once("drain", pump);
    };
    socket.write(`POST /v1.0/bulk?apikey=${key} HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nContent-Length: ${declared}\r\n\r\n`, pump);
    await new Promise((resolve) => socket.on("close", resolve));
    expect(Buffer.concat(received).toString("latin1")).toMatch(/^HTTP\/1\.1 413/);
    expect(sentWhenAnswered).toBeGreaterThanOrEqual(0);
    // Read off for 64 MiB past the answer (what was in flight when the client saw it counts too), then cut: far
    // short of the 256 declared.
    expect(sent - sentWhenAnswered).toBeGreaterThan(32 * 1024 * 1024);
    expect(sent).toBeLessThan(128 * 1024 * 1024);
  });

  it("refuses it too when sent chunked, without a content-length", async () => {
    const body = bigBody();
    const res = await request(
      { method: "POST", path: `/v1.0/bulk?apikey=${key}`, headers: { "content-type": "text/plain" } },
      (req) => {
        for (let offset = 0; offset < body.length; offset += 8192) req.write(body.subarray(offset, offset + 8192));
        req.end();
      },
    );
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual({ Error: expect.any(String), Type: "body_too_large" });
    await expectUp();
  });

  it("accepts a body just under the limit", async () => {
    const line = `${freshUrl()}/${"z".repeat(200)}\n`;
    const body = line.repeat(Math.floor((MAX_BODY - 1024) / line.length));
    const res = await request(
      { method: "POST", path: `/v1.0/bulk?apikey=${key}`, headers: { "content-type": "text/plain" } },
      (req) => req.end(body),
    );
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).count).toBe(1);
  });

  it("refuses an empty body with 400 no_valid_urls", async () => {
    await expectError(await svc.get(`/v1.0/bulk?apikey=${key}`, { method: "POST" }), 400, "no_valid_urls");
    await expectError(
      await svc.get(`/v1.0/bulk?apikey=${key}`, { method: "POST", headers: { "content-type": "text/plain" }, body: "" }),
      400,
      "no_valid_urls",
    );
    await expectError(
      await svc.get(`/v1.0/bulk?apikey=${key}`, { method: "POST", body: "\n\r\n  \n" }),
      400,
      "no_valid_urls",
    );
    await expectError(
      await svc.get(`/v1.0/bulk?apikey=${key}`, { method: "POST", body: "garbage\nftp://a.com/\njavascript:alert(1)\n" }),
      400,
      "no_valid_urls",
    );
  });

  it("refuses a malformed JSON body with 400 invalid_body", async () => {
    await expectError(
      await svc.get(`/v1.0/bulk?apikey=${key}`, { method: "POST", headers: { "content-type": "application/json" }, body: "{" }),
      400,
      "invalid_body",
    );
    await expectError(
      await svc.get(`/v1.0/bulk?apikey=${key}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ urls: 42 }),
      }),
      400,
      "invalid_body",
    );
  });

  it("refuses a multipart body that cannot be parsed with a 4xx", async () => {
    const res = await svc.get(`/v1.0/bulk?apikey=${key}`, {
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=zzz" },
      body: "--zzz\r\nContent-Disposition: form-data; name=\"urls\"\r\n\r\nhttp://a.com/\r\n--z",
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });
});

describe("wrong methods and unknown paths", () => {
  it.each([
    ["DELETE", "/v1.0/", "GET"],
    ["PUT", "/v1.0/", "GET"],
    ["POST", "/v1.0/", "GET"],
    ["PATCH", "/v1.1/", "GET"],
    ["PUT", "/v1.0/bulk", "GET, POST"],
    ["DELETE", "/bulk", "GET, POST"],
    ["POST", "/v1.0/quota", "GET"],
    ["POST", "/v1.0/usage", "GET"],
    ["POST", "/v1.0/domain_whitelist", "GET"],
    ["POST", "/v1.0/status", "GET"],
    ["DELETE", "/url", "GET"],
  ])("%s %s → 405 method_not_allowed, Allow: %s", async (method, path, allow) => {
    const res = await svc.get(`${path}?apikey=${key}`, { method });
    expect(res.headers.get("allow")).toBe(allow);
    const body = await expectError(res, 405, "method_not_allowed");
    expect(body.Error).toContain(allow);
  });

  it.each([["/v1.0/nope"], ["/v1.1/x/y"], ["/v1.0/bulk/extra"], ["/v1.0/status/x"], ["/v1.1/url"], ["/v1.0/quota/"+"a".repeat(500)]])(
    "%s → JSON 404 not_found",
    async (path) => {
      await expectError(await svc.get(`${path}?apikey=${key}`), 404, "not_found");
    },
  );
});

describe("callback", () => {
  it.each([["alert(1)"], ["a-b"], ["a b"], ["1abc"], ["a..b"], ["a."], ["<script>"], ["a".repeat(1025)], [`a.${"b".repeat(127)}`], ["a;b"], ["a[0]"]])(
    "%j → 400 invalid_callback as JSON, not JSONP",
    async (callback) => {
      const res = await svc.get(`/v1.0/?url=${encodeURIComponent(freshUrl())}&apikey=${key}&callback=${encodeURIComponent(callback)}`);
      await expectError(res, 400, "invalid_callback");
    },
  );

  it("refuses a bad callback before anything else, even without a key", async () => {
    await expectError(await svc.get("/v1.0/?callback=alert(1)"), 400, "invalid_callback");
  });

  it("refuses JSONP on the account and bulk endpoints with 400", async () => {
    await expectError(await svc.get(`/v1.0/quota?apikey=${key}&callback=cb`), 400, "jsonp_not_supported");
    await expectError(await svc.get(`/v1.1/usage?apikey=${key}&callback=cb`), 400, "jsonp_not_supported");
    await expectError(await svc.get(`/v1.0/bulk?apikey=${key}&bulk_id=x&callback=cb`), 400, "jsonp_not_supported");
  });

  it("still answers a valid callback as JSONP", async () => {
    const res = await svc.get(`/v1.0/?url=${encodeURIComponent(freshUrl())}&apikey=${key}&callback=my.cb_1`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/javascript/);
    expect(await res.text()).toMatch(/my\.cb_1\(\{.*"Facebook".*\}\);$/);
  });
});

describe("custom_ttl", () => {
  it("is refused on a plan other than dedicated with 403 custom_ttl_not_allowed, and not counted", async () => {
    const before = (await (await svc.get(`/v1.0/quota?apikey=${key}`)).json()).quota_used_today;
    const body = await expectError(
      await svc.get(`/v1.0/?url=${encodeURIComponent(freshUrl())}&apikey=${key}&custom_ttl=60`),
      403,
      "custom_ttl_not_allowed",
    );
    expect(body.Error).toContain("business");
    await expectError(
      await svc.get(`/v1.0/?url=${encodeURIComponent(freshUrl())}&apikey=${freeKey}&custom_ttl=0`),
      403,
      "custom_ttl_not_allowed",
    );
    expect((await (await svc.get(`/v1.0/quota?apikey=${key}`)).json()).quota_used_today).toBe(before);
  });

  it.each([["-1"], ["abc"], ["99999"], ["3601"], ["1.5"], ["1e3"], [" 5"], ["0x10"], [""], ["9".repeat(30)]])(
    "custom_ttl=%j on dedicated → 400 invalid_custom_ttl",
    async (ttl) => {
      await expectError(
        await svc.get(`/v1.0/?url=${encodeURIComponent(freshUrl())}&apikey=${dedicatedKey}&custom_ttl=${encodeURIComponent(ttl)}`),
        400,
        "invalid_custom_ttl",
      );
    },
  );

  it("accepts 0 and 3600 on dedicated", async () => {
    for (const ttl of ["0", "3600"]) {
      const res = await svc.get(`/v1.0/?url=${encodeURIComponent(freshUrl())}&apikey=${dedicatedKey}&custom_ttl=${ttl}`);
      expect(res.status).toBe(200);
    }
  });
});

describe("status", () => {
  it("GET /v1.0/status answers 200 {status: up} with no key, with a key, and with a wrong key", async () => {
    for (const query of ["", `?apikey=${key}`, `?apiKey=${freeKey}`, "?apikey=wrong"]) {
      const res = await svc.get(`/v1.0/status${query}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect(await res.text()).toBe('{"status":"up"}');
    }
    expect(await (await svc.get("/v1.0/status/")).json()).toEqual({ status: "up" });
  });
});

/** A small deterministic PRNG, so a failing fuzz run can be replayed from its seed. */
function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("fuzz", () => {
  it("300 random requests: no 5xx, every error is a JSON error object, and the service still answers", async () => {
    const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000);
    const random = mulberry32(seed);
    const int = (n: number) => Math.floor(random() * n);
    const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
    const PRINTABLE = "abcXYZ019-._~!$'()*+,;=:@/?&#%[]{}|\\^`\"<> ";
    const pctBytes = (n: number) =>
      Array.from({ length: n }, () => `%${int(256).toString(16).padStart(2, "0").toUpperCase()}`).join("");
    const printable = (n: number) => Array.from({ length: n }, () => PRINTABLE[int(PRINTABLE.length)]).join("");
    const unicode = (n: number) => Array.from({ length: n }, () => String.fromCodePoint(int(0xd7ff) + 1)).join("");
    const randomValue = (): string => {
      switch (int(7)) {
        case 0:
          return pctBytes(int(20));
        case 1:
          return encodeURIComponent(printable(int(40)));
        case 2:
          return encodeURIComponent(unicode(int(10)));
        case 3:
          return encodeURIComponent(`http://${printable(int(12))}.com/${printable(int(20))}`);
        case 4:
          return encodeURIComponent(freshUrl()) + pctBytes(int(4));
        case 5:
          return "x".repeat(int(3000));
        default:
          return "";
      }
    };
    const paths = ["/v1.0/", "/v1.1/", "/url", "/v1.0//url", "/v1.0/bulk", "/v1.1/bulk", "/bulk", "/v1.0/quota", "/v1.0/usage"];
    const morePaths = ["/v1.0/domain_whitelist", "/v1.0/status", "/v1.1/status"];
    const failures: string[] = [];

    for (let i = 0; i < 300; i++) {
      const path =
        int(10) === 0
          ? `/${pick(["v1.0", "v1.1", "url", "bulk", pctBytes(3)])}/${pctBytes(int(6))}${encodeURIComponent(printable(int(6)))}`
          : pick([...paths, ...morePaths]);
      const params: string[] = [];
      const keyValue = pick([dedicatedKey, key, freeKey, randomValue(), ""]);
      if (int(5) > 0) params.push(`${pick(["apikey", "apiKey"])}=${keyValue}`);
      if (int(4) > 0) params.push(`url=${pick([randomValue(), encodeURIComponent(freshUrl()), `${freshUrl()}?a=1&b=${randomValue()}`])}`);
      if (int(4) === 0) params.push(`callback=${pick([randomValue(), "cb", "a.b", "alert(1)"])}`);
      if (int(4) === 0) params.push(`custom_ttl=${pick([randomValue(), "0", "60", "-1", String(int(100_000))])}`);
      if (int(4) === 0) params.push(`bulk_id=${randomValue()}`);
      if (int(6) === 0) params.push(`force=${pick(["1", "0", randomValue()])}`);
      if (int(6) === 0) params.push(`_=${int(1e9)}`);
      if (int(6) === 0) params.push(`${randomValue()}=${randomValue()}`);
      // Shuffle, so the raw-url heuristics of the query parser see parameters in every order.
      for (let j = params.length - 1; j > 0; j--) {
        const k = int(j + 1);
        [params[j], params[k]] = [params[k]!, params[j]!];
      }
      const method = pick(["GET", "GET", "GET", "POST", "PUT", "DELETE"]);
      let body: string | undefined;
      const headers: Record<string, string> = {};
      if (method === "POST" || method === "PUT") {
        body = Array.from({ length: int(5) }, () => pick([freshUrl(), decodeURIComponent(encodeURIComponent(printable(30))), unicode(8)])).join(
          pick(["\n", "\r\n", "\r"]),
        );
        const type = pick(["text/plain", "application/json", "application/x-www-form-urlencoded", "multipart/form-data; boundary=b", ""]);
        if (type) headers["content-type"] = type;
      }
      const description = `#${i} (seed ${seed}) ${method} ${path}?${params.join("&")}`.slice(0, 400);
      let res: Response;
      try {
        res = await svc.get(`${path}?${params.join("&")}`, { method, body, headers });
      } catch (error) {
        failures.push(`${description}: ${(error as Error).message}`);
        continue;
      }
      const text = await res.text();
      if (res.status >= 500) {
        failures.push(`${description}: HTTP ${res.status} ${text.slice(0, 200)}`);
        continue;
      }
      if (res.status >= 400) {
        let ok = false;
        try {
          const parsed = JSON.parse(text);
          ok =
            Object.keys(parsed).sort().join() === "Error,Type" &&
            typeof parsed.Error === "string" &&
            typeof parsed.Type === "string";
        } catch {
          ok = false;
        }
        if (!ok || !/^application\/json/.test(res.headers.get("content-type") ?? "")) {
          failures.push(`${description}: HTTP ${res.status} is not a JSON error object: ${text.slice(0, 200)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    await expectUp();
  });
});

describe("when the database is unreachable", () => {
  let down: TestService;
  let downKey: string;
  beforeAll(async () => {
    down = await startTestService({}, { worker: false });
    downKey = (await down.account("business")).apiKey;
    // The account exists and works while the database is there.
    expect((await down.get(`/v1.0/quota?apikey=${downKey}`)).status).toBe(200);
    await down.runtime.store.close();
  });
  afterAll(() => down.close());

  it("GET /v1.0/status answers 503 with no content", async () => {
    for (const path of ["/v1.0/status", "/v1.1/status", `/v1.0/status?apikey=${downKey}`]) {
      const res = await down.get(path);
      expect(res.status).toBe(503);
      expect(await res.text()).toBe("");
    }
  });

  it.each([
    ["GET", "/v1.0/quota"],
    ["GET", "/v1.0/usage"],
    ["GET", "/v1.0/domain_whitelist"],
    ["GET", "/v1.0/?url=https%3A%2F%2Fexample.com%2Fdown"],
    ["GET", "/v1.1/?url=https%3A%2F%2Fexample.com%2Fdown"],
    ["GET", "/v1.0/bulk?bulk_id=abc"],
    ["POST", "/v1.0/bulk"],
  ])("%s %s answers 503 service_unavailable JSON, not 500", async (method, path) => {
    const sep = path.includes("?") ? "&" : "?";
    const res = await down.get(`${path}${sep}apikey=${downKey}`, {
      method,
      body: method === "POST" ? "https://example.com/a\n" : undefined,
    });
    expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
    await expectError(res, 503, "service_unavailable");
  });

  it("answers a JSONP request with the error in the callback, status 200", async () => {
    const res = await down.get(`/v1.0/?url=https%3A%2F%2Fexample.com%2Fdown&apikey=${downKey}&callback=cb`);
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/cb\(\{"Error":".+","Type":"service_unavailable"\}\);/);
  });

  it("still answers what needs no database (a missing key, a bad path) as usual", async () => {
    await expectError(await down.get("/v1.0/?url=https%3A%2F%2Fexample.com%2F"), 401, "missing_api_key");
    await expectError(await down.get("/v1.0/nope"), 404, "not_found");
  });
});
