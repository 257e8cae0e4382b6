import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { MoreSandboxStats } from "../../service/sandbox/control.ts";
import { deriveMoreCounts } from "../../service/sandbox/derive-counts.ts";
import { moreTwinUrls, startSandbox, type MoreTwinUrls } from "../../service/sandbox/sandbox.ts";
import { useSandbox } from "./sandbox.ts";

/** The options every upstream adapter takes. */
interface BaseOptions {
  baseUrl: string;
  timeoutMs: number;
}

interface Adapter {
  readonly name: string;
  fetchCount(url: string, signal: AbortSignal): Promise<unknown>;
}

/** The modes every twin of the newer networks has. */
type CommonMode = "ok" | "none" | "fail" | "throttle" | "429" | "garbage" | "hang";

/** One of the newer networks' adapters and its twin in the sandbox. */
export interface UpstreamSpec<Options extends BaseOptions> {
  /** The adapter's name, which is also its twin's knob and stats key. */
  network: keyof MoreSandboxStats & string;
  /** Where the twin answers in moreTwinUrls and on a started sandbox. */
  twinUrl: keyof MoreTwinUrls;
  create(options: Options): Adapter;
  /** The twin's `garbage` bodies. */
  garbageBodies: readonly string[];
}

export interface SuccessCase {
  name: string;
  url: string;
  /** The value the adapter reads from the twin's answer for url. */
  value(url: string): unknown;
  /** Checks of the test's own, before the adapter is asked. */
  before?(url: string): Promise<void>;
}

/**
 * The sandbox of a test file on one of the newer networks' adapters, and the cases every such adapter
 * passes in the same way (call commonCases() inside the file's describe; the network's own cases follow it).
 */
export function useUpstreamSandbox<Options extends BaseOptions>(spec: UpstreamSpec<Options>) {
  const sandbox = useSandbox();
  const twinUrl = () => moreTwinUrls(sandbox.origin)[spec.twinUrl];
  const setMode = (mode: CommonMode) => sandbox.control("/__sandbox/more/knobs", "PUT", { [spec.network]: { mode } });
  const stats = async () => (await (await fetch(`${sandbox.origin}/__sandbox/more/stats`)).json()) as MoreSandboxStats;
  const fetchCount = (url: string, options: Partial<Options> = {}) =>
    spec.create({ baseUrl: twinUrl(), timeoutMs: 2000, ...options } as Options).fetchCount(url, new AbortController().signal);

  function commonCases(cases: { success: SuccessCase; none: { name: string; value: unknown } }): void {
    it(`is named ${spec.network}`, () => {
      expect(spec.create({ baseUrl: "http://127.0.0.1:1", timeoutMs: 1 } as Options).name).toBe(spec.network);
    });

    it(cases.success.name, async () => {
      const { url } = cases.success;
      await cases.success.before?.(url);
      const first = await fetchCount(url);
      expect(first).toEqual({ ok: true, value: cases.success.value(url), sandbox: true });
      expect(await fetchCount(url)).toEqual(first);
    });

    it(cases.none.name, async () => {
      await setMode("none");
      expect(await fetchCount("https://example.com/")).toEqual({ ok: true, value: cases.none.value, sandbox: true });
    });

    it("classifies every garbage answer as failed", async () => {
      await setMode("garbage");
      const bodies = spec.garbageBodies;
      const seen = new Set<number>();
      for (let i = 0; seen.size < bodies.length && i < 200; i++) {
        const url = `https://example.com/garbage/${i}`;
        const variant = deriveMoreCounts(url).variant % bodies.length;
        if (seen.has(variant)) continue;
        seen.add(variant);
        expect(await fetchCount(url)).toMatchObject({ ok: false, failure: "failed", sandbox: true });
      }
      expect(seen.size).toBe(bodies.length);
    });

    it("classifies 500 as failed", async () => {
      await setMode("fail");
      expect(await fetchCount("https://example.com/")).toEqual({ ok: false, failure: "failed", detail: "HTTP 500", sandbox: true });
    });

    it("classifies 429 as throttled, carrying Retry-After when given", async () => {
      await setMode("throttle");
      expect(await fetchCount("https://example.com/")).toMatchObject({ ok: false, failure: "throttled", retryAfterMs: 30_000 });
      await setMode("429");
      const bare = await fetchCount("https://example.com/");
      expect(bare).toMatchObject({ ok: false, failure: "throttled" });
      expect(bare).not.toHaveProperty("retryAfterMs");
    });

    it("times out on a hanging upstream", async () => {
      await setMode("hang");
      const started = performance.now();
      expect(await fetchCount("https://example.com/", { timeoutMs: 200 } as Partial<Options>)).toMatchObject({ ok: false, failure: "timeout" });
      expect(performance.now() - started).toBeLessThan(1500);
    });

    it("fails on a transport error", async () => {
      const closed = await startSandbox();
      await closed.close();
      expect(await fetchCount("https://example.com/", { baseUrl: closed[spec.twinUrl] } as Partial<Options>)).toMatchObject({
        ok: false,
        failure: "failed",
        sandbox: false,
      });
    });

    it("makes one upstream call per fetch", async () => {
      await Promise.all([fetchCount("https://example.com/1"), fetchCount("https://example.com/1"), fetchCount("https://example.com/2")]);
      expect((await stats())[spec.network]).toEqual({ calls: 3, byUrl: { "https://example.com/1": 2, "https://example.com/2": 1 } });
    });
  }

  return { sandbox, twinUrl, setMode, stats, fetchCount, commonCases };
}

/** A local HTTP server standing in for the network, for answers the sandbox never gives; its origin once started. */
export function useStub(listener: RequestListener): { readonly baseUrl: string } {
  let stub: Server;
  let baseUrl: string | undefined;
  beforeAll(async () => {
    stub = createServer(listener);
    await new Promise<void>((resolve) => stub.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    stub.closeAllConnections();
    await new Promise((resolve) => stub.close(resolve));
  });
  return {
    get baseUrl() {
      if (baseUrl === undefined) throw new Error("the stub starts in beforeAll: use it inside tests");
      return baseUrl;
    },
  };
}
