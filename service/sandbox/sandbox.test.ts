import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, it, expect } from "vitest";
import { SANDBOX_HEADER } from "../networks/types.ts";
import { deriveCounts } from "./derive-counts.ts";
import { useSandbox } from "../../test/support/sandbox.ts";
import { startSandbox } from "./sandbox.ts";

const sandbox = useSandbox();

const sendJson = sandbox.control;
const setKnobs = (knobs: unknown) => sendJson("/__sandbox/knobs", "PUT", knobs);
const graph = (url: string, fields = "engagement,og_object", token = "app|secret") =>
  fetch(`${sandbox.facebookGraphUrl}/?id=${encodeURIComponent(url)}&fields=${fields}&access_token=${token}`);
const pin = (url: string, extra = "") => fetch(`${sandbox.pinterestCountUrl}?url=${encodeURIComponent(url)}${extra}`);
const stats = sandbox.stats;

describe("sandbox", () => {
  it("listens on 127.0.0.1 with an ephemeral port and exposes both upstream URLs", () => {
    expect(sandbox.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.facebookGraphUrl).toBe(`${sandbox.origin}/facebook/v24.0`);
    expect(sandbox.pinterestCountUrl).toBe(`${sandbox.origin}/pinterest/v1/urls/count.json`);
  });

  it("answers Graph engagement deterministically, with og_object only when asked", async () => {
    const url = "https://example.com/article?a=1&b=2";
    const first = await (await graph(url)).json();
    const second = await (await graph(url)).json();
    expect(first).toEqual(second);
    const derived = deriveCounts(url);
    expect(first).toMatchObject({ engagement: derived.facebook, id: url });
    const without = await (await graph(url, "engagement")).json();
    expect(without).toEqual({ engagement: derived.facebook, id: url });
  });

  it("omits og_object for some URLs and gives zero counts for a small fraction", () => {
    const urls = Array.from({ length: 1000 }, (_, i) => `https://example.com/p/${i}`);
    const derived = urls.map(deriveCounts);
    const zeros = derived.filter((d) => d.pinterest === 0 && Object.values(d.facebook).every((n) => n === 0));
    expect(zeros.length).toBeGreaterThan(20);
    expect(zeros.length).toBeLessThan(120);
    const noOg = derived.filter((d) => d.ogObject === null).length;
    expect(noOg).toBeGreaterThan(100);
    expect(noOg).toBeLessThan(500);
  });

  it("answers a URL without og_object the way Facebook does", async () => {
    const url = Array.from({ length: 200 }, (_, i) => `https://example.com/no-og/${i}`).find(
      (u) => deriveCounts(u).ogObject === null,
    )!;
    const body = await (await graph(url)).json();
    expect(body).not.toHaveProperty("og_object");
    expect(body).toHaveProperty("engagement");
  });

  it("requires an access token", async () => {
    const response = await graph("https://example.com/", "engagement", "");
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.error).toMatchObject({ code: 104, type: "OAuthException" });
    expect(body.error.message).toBe("An access token is required to request this resource.");
  });

  it("answers Pinterest JSONP, renaming the wrapper on request", async () => {
    const url = "https://example.com/pin";
    const count = deriveCounts(url).pinterest;
    const plain = await pin(url);
    expect(plain.headers.get("content-type")).toContain("application/javascript");
    expect(await plain.text()).toBe(`receiveCount({"url":"${url}","count":${count}})`);
    expect(await (await pin(url, "&callback=myCallback_1")).text()).toBe(`myCallback_1({"url":"${url}","count":${count}})`);
    expect(await (await pin(url, "&callback=alert(1)")).text()).toMatch(/^receiveCount\(/);
  });

  it("marks every answer, errors and control routes included, with the sandbox header", async () => {
    await setKnobs({ facebook: { mode: "bare-403" }, pinterest: { mode: "fail" } });
    const responses = [
      await graph("https://example.com/"),
      await pin("https://example.com/"),
      await fetch(`${sandbox.origin}/__sandbox/stats`),
      await fetch(`${sandbox.origin}/__sandbox/knobs`),
      await setKnobs({ facebook: { mode: "nope" } }),
      await fetch(`${sandbox.origin}/nowhere`),
    ];
    expect(responses.map((r) => r.status)).toEqual([403, 500, 200, 200, 400, 404]);
    for (const response of responses) expect(response.headers.get(SANDBOX_HEADER)).toBe("1");
  });

  it("updates knobs partially and refuses bad input", async () => {
    let response = await setKnobs({ facebook: { mode: "throttle" } });
    expect(response.status).toBe(200);
    response = await setKnobs({ facebook: { latencyMs: 5 }, pinterest: { mode: "dash" } });
    expect(await response.json()).toEqual({
      facebook: { mode: "throttle", latencyMs: 5 },
      pinterest: { mode: "dash", latencyMs: 0 },
    });
    for (const bad of [{ facebook: { mode: "dash" } }, { pinterest: { latencyMs: -1 } }, { twitter: {} }, [1]]) {
      expect((await setKnobs(bad)).status).toBe(400);
    }
    const notJson = await fetch(`${sandbox.origin}/__sandbox/knobs`, { method: "PUT", body: "{" });
    expect(notJson.status).toBe(400);
    expect(await (await fetch(`${sandbox.origin}/__sandbox/knobs`)).json()).toMatchObject({
      facebook: { mode: "throttle", latencyMs: 5 },
    });
  });

  it("serves each Facebook failure mode with Graph's status and error code", async () => {
    const cases: Array<[string, number, number | null]> = [
      ["fail", 500, 1],
      ["throttle", 403, 4],
      ["throttle-613", 403, 613],
      ["429", 429, null],
    ];
    for (const [mode, status, code] of cases) {
      await setKnobs({ facebook: { mode } });
      const response = await graph("https://example.com/");
      expect(response.status).toBe(status);
      if (code !== null) expect((await response.json()).error.code).toBe(code);
    }
    await setKnobs({ facebook: { mode: "bare-403" } });
    for (let i = 0; i < 6; i++) {
      const response = await graph(`https://example.com/${i}`);
      expect(response.status).toBe(403);
      expect(await response.text()).not.toContain('"error"');
    }
  });

  it("adds latency with a timer", async () => {
    await setKnobs({ facebook: { latencyMs: 150 } });
    const started = performance.now();
    await graph("https://example.com/");
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it("takes initial latency from the start options", async () => {
    const slow = await startSandbox({ latencyMs: 120 });
    try {
      const started = performance.now();
      await fetch(`${slow.pinterestCountUrl}?url=x`);
      expect(performance.now() - started).toBeGreaterThanOrEqual(110);
      expect(await (await fetch(`${slow.origin}/__sandbox/knobs`)).json()).toMatchObject({
        facebook: { latencyMs: 120 },
        pinterest: { latencyMs: 120 },
      });
    } finally {
      await slow.close();
    }
  });

  it("hangs until the client gives up, and still closes", async () => {
    const own = await startSandbox();
    await fetch(`${own.origin}/__sandbox/knobs`, { method: "PUT", body: JSON.stringify({ pinterest: { mode: "hang" } }) });
    await expect(fetch(`${own.pinterestCountUrl}?url=x`, { signal: AbortSignal.timeout(100) })).rejects.toThrow();
    const pending = fetch(`${own.pinterestCountUrl}?url=y`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await own.close();
    await expect(pending).rejects.toThrow();
  });

  it("overrides counts for one URL", async () => {
    const url = "https://example.com/changed";
    const response = await sendJson("/__sandbox/counts", "POST", { url, facebook: { share_count: 777 }, pinterest: 42 });
    expect(response.status).toBe(200);
    const body = await (await graph(url)).json();
    expect(body.engagement).toEqual({ ...deriveCounts(url).facebook, share_count: 777 });
    expect(await (await pin(url)).text()).toContain('"count":42');
    expect((await sendJson("/__sandbox/counts", "POST", { url, facebook: { share_count: -1 } })).status).toBe(400);
    expect((await sendJson("/__sandbox/counts", "POST", { facebook: {} })).status).toBe(400);
  });

  it("counts upstream calls in total and per URL, and resets", async () => {
    await Promise.all([graph("https://a.example/"), graph("https://a.example/"), graph("https://b.example/")]);
    await pin("https://a.example/");
    expect(await stats()).toEqual({
      facebook: { calls: 3 },
      pinterest: { calls: 1 },
      facebookByUrl: { "https://a.example/": 2, "https://b.example/": 1 },
      pinterestByUrl: { "https://a.example/": 1 },
    });
    await setKnobs({ facebook: { mode: "fail" } });
    await sendJson("/__sandbox/counts", "POST", { url: "https://a.example/", pinterest: 1 });
    await fetch(`${sandbox.origin}/__sandbox/reset`, { method: "POST" });
    expect((await stats()).facebook.calls).toBe(0);
    expect((await graph("https://a.example/")).status).toBe(200);
    expect(await (await pin("https://a.example/")).text()).toContain(`"count":${deriveCounts("https://a.example/").pinterest}`);
  });

  it("runs standalone and prints its URLs as one JSON line", async () => {
    const file = fileURLToPath(new URL("./cli.ts", import.meta.url));
    const child = spawn(process.execPath, ["--import", "tsx", file], {
      env: { ...process.env, SANDBOX_PORT: "0" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout.on("data", (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes("\n")) resolve(out.split("\n")[0]!);
        });
        child.once("exit", (code) => reject(new Error(`exited with ${code}`)));
      });
      const urls = JSON.parse(line) as { origin: string; facebookGraphUrl: string; pinterestCountUrl: string };
      expect(urls.facebookGraphUrl).toBe(`${urls.origin}/facebook/v24.0`);
      const response = await fetch(`${urls.pinterestCountUrl}?url=x`);
      expect(response.headers.get(SANDBOX_HEADER)).toBe("1");
    } finally {
      child.kill("SIGTERM");
    }
  }, 20_000);
});
