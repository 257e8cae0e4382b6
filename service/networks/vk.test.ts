import { describe, it, expect } from "vitest";
import { deriveMoreCounts } from "../sandbox/derive-counts.ts";
import { VK_GARBAGE_BODIES } from "../sandbox/vk.ts";
import { useStub, useUpstreamSandbox } from "../../test/support/upstream-cases.ts";
import { createVkAdapter, type VkAdapterOptions } from "./vk.ts";

const vk = useUpstreamSandbox<VkAdapterOptions>({ network: "vk", twinUrl: "vkUrl", create: createVkAdapter, garbageBodies: VK_GARBAGE_BODIES });

describe("VK adapter against the sandbox", () => {
  vk.commonCases({
    success: {
      name: "reads the share count, the same on every call, flagged as sandbox data",
      url: "https://example.com/vk?a=1&b=2",
      value: (url) => ({ count: deriveMoreCounts(url).vk }),
    },
    none: { name: "reports VK.Share.count(1, 0) as a real zero", value: { count: 0 } },
  });
});

/** Answers the sandbox never gives. */
describe("VK adapter on unusual answers", () => {
  let body = "";
  const stub = useStub((_req, res) => res.writeHead(200, { "content-type": "text/javascript" }).end(body));

  const run = (answer: string) => {
    body = answer;
    return vk.fetchCount("https://example.com/", { baseUrl: stub.baseUrl });
  };

  it.each([
    ["VK.Share.count(1, 42);", 42],
    ["VK.Share.count(1,7)", 7],
    ["  VK.Share.count( 1 , 0 ) ;\n", 0],
  ])("accepts %j", async (answer, count) => {
    expect(await run(answer)).toEqual({ ok: true, value: { count }, sandbox: false });
  });

  it.each(["", "VK.Share.count(0, 42);", "VK.Share.count(1, 4.2);", "VK.Share.count(1, 42); alert(1)", "VK.Share.count(1, 1234567890123456);"])(
    "classifies %j as failed",
    async (answer) => {
      expect(await run(answer)).toMatchObject({ ok: false, failure: "failed" });
    },
  );
});
