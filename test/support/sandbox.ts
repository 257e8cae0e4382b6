import { afterAll, beforeAll, beforeEach } from "vitest";
import type { SandboxStats } from "../../service/sandbox/control.ts";
import { startSandbox, type Sandbox } from "../../service/sandbox/sandbox.ts";

export interface TestSandbox {
  readonly origin: string;
  readonly facebookGraphUrl: string;
  readonly pinterestCountUrl: string;
  /** A JSON request to the sandbox's control API (`/__sandbox/…`). */
  control(path: string, method: string, body: unknown): Promise<Response>;
  stats(): Promise<SandboxStats>;
}

/** A sandbox of the test file's own: started before its tests, reset (knobs, counts, calls) before each, closed after. */
export function useSandbox(): TestSandbox {
  let sandbox: Sandbox | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(() => sandbox?.close());
  beforeEach(async () => {
    await fetch(`${started().origin}/__sandbox/reset`, { method: "POST" });
  });
  const started = () => {
    if (!sandbox) throw new Error("the sandbox starts in beforeAll: use it inside tests");
    return sandbox;
  };
  return {
    get origin() {
      return started().origin;
    },
    get facebookGraphUrl() {
      return started().facebookGraphUrl;
    },
    get pinterestCountUrl() {
      return started().pinterestCountUrl;
    },
    control: (path, method, body) =>
      fetch(`${started().origin}${path}`, { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    stats: async () => (await (await fetch(`${started().origin}/__sandbox/stats`)).json()) as SandboxStats,
  };
}
