import { describe, it, expect } from "vitest";
import { deriveMoreCounts } from "../sandbox/derive-counts.ts";
import { OK_GARBAGE_BODIES } from "../sandbox/ok.ts";
import { useStub, useUpstreamSandbox } from "../../test/support/upstream-cases.ts";
import { createOkAdapter, type OkAdapterOptions } from "./ok.ts";

const ok = useUpstreamSandbox<OkAdapterOptions>({ network: "ok", twinUrl: "okUrl", create: createOkAdapter, garbageBodies: OK_GARBAGE_BODIES });

describe("OK.ru adapter against the sandbox", () => {
  ok.commonCases({
    success: {
      name: "reads the string count, the same on every call, flagged as sandbox data",
      url: "https://example.com/ok?a=1&b=2",
      before: async (url) => {
        const raw = await (await fetch(`${ok.twinUrl()}/dk?st.cmd=extLike&tp=json&ref=${encodeURIComponent(url)}`)).json();
        expect(raw).toEqual({ count: String(deriveMoreCounts(url).ok) });
      },
      value: (url) => ({ count: deriveMoreCounts(url).ok }),
    },
    none: { name: 'reports {"count":"0"} as a real zero', value: { count: 0 } },
  });
});

/** Answers the sandbox never gives. */
describe("OK.ru adapter on unusual answers", () => {
  let body = "";
  const stub = useStub((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end(body));

  const run = (answer: string) => {
    body = answer;
    return ok.fetchCount("https://example.com/", { baseUrl: stub.baseUrl });
  };

  it.each([
    ['{"count":"12"}', 12],
    ['{"count":12}', 12],
    ['{"count":"0","extra":true}', 0],
  ])("accepts %j", async (answer, count) => {
    expect(await run(answer)).toEqual({ ok: true, value: { count }, sandbox: false });
  });

  it.each(["", "{}", '{"count":null}', '{"count":"-1"}', '{"count":"1.5"}', '{"count":-1}', '{"count":""}', "[]"])(
    "classifies %j as failed",
    async (answer) => {
      expect(await run(answer)).toMatchObject({ ok: false, failure: "failed" });
    },
  );
});
