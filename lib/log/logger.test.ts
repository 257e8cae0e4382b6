import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "./logger.ts";
import { withoutKeyShapedRuns } from "./redact.ts";

const KEY = "0123456789abcdef0123456789abcdef01234567";

/** A logger writing into an array of parsed lines. */
function capture(level: "info" | "debug" = "info") {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split("\n").filter(Boolean));
      done();
    },
  });
  return { logger: createLogger({ level, format: "json" }, destination), lines };
}

describe("log lines", () => {
  it("are JSON objects with a level name, an ISO time and the fields given", () => {
    const { logger, lines } = capture();
    logger.info({ event: "listening", port: 3000 }, "ready");
    logger.debug({ event: "hidden" });
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(line).toMatchObject({ level: "info", event: "listening", port: 3000, msg: "ready" });
    expect(new Date(line.time as string).toISOString()).toBe(line.time);
  });

  it("never carry a key, a bearer token, a cookie or a password, as a field, in a message or in an error", () => {
    const { logger, lines } = capture("debug");
    logger.info({ apikey: KEY, apiKey: KEY, password: "hunter2-hunter2", authorization: `Bearer ${KEY}` });
    logger.info({ req: { headers: { authorization: `Bearer ${KEY}`, cookie: `session=${KEY}` } } });
    logger.info({ headers: { cookie: `session=${KEY}` }, query: { apikey: KEY } });
    logger.warn({ url: `/v1.0/?url=https%3A%2F%2Fexample.com&apikey=${KEY}` }, `GET /v1.0/?apiKey=${KEY}&url=x failed`);
    logger.error({ err: new Error(`fetch http://api:3000/v1.0/quota?apikey=${KEY} failed: Authorization: Bearer ${KEY}`) });
    logger.error({ err: new Error("outer", { cause: new Error(`inner ?api_key=${KEY}`) }) });
    logger.debug({}, `sent Bearer ${KEY}`);
    logger.info({}, `apikey=${KEY}`);
    logger.info({ target: `/v1.0/?url=https%3A%2F%2Fa.example%2F%3Fx%3D1%26apikey%3D${KEY}`, note: `API_KEY=${KEY}` });
    logger.info({ body: { user: { password: KEY } }, res: { headers: { "set-cookie": `s=${KEY}` } }, api_key: KEY, a: { token: KEY, "x-api-key": KEY } });
    expect(lines).toHaveLength(10);
    for (const line of lines) expect(line).not.toContain(KEY);
    expect(lines.join("\n")).not.toContain("hunter2");
    expect(lines[0]).toContain('"apikey":"[redacted]"');
    expect(JSON.parse(lines[4]!).err).toMatchObject({ type: "Error", message: "fetch http://api:3000/v1.0/quota?apikey=[redacted] failed: Authorization: Bearer [redacted]" });
  });

  it("targets lose every key-shaped run, however the key was named, but keep a bulk id", () => {
    const bulkId = "f".repeat(40);
    expect(withoutKeyShapedRuns(`url=https%3A%2F%2Fa.com%3Bapikey%3D${KEY}&key=${KEY}&apikey[]=${KEY.toUpperCase()}&bulk_id=${bulkId}`)).toBe(
      `url=https%3A%2F%2Fa.com%3Bapikey%[redacted]&key=[redacted]&apikey[]=[redacted]&bulk_id=${bulkId}`,
    );
  });
});
