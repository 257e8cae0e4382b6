import { describe, it, expect } from "vitest";
import { deriveMoreCounts } from "../sandbox/derive-counts.ts";
import { TUMBLR_GARBAGE_BODIES } from "../sandbox/tumblr.ts";
import { useStub, useUpstreamSandbox } from "../../test/support/upstream-cases.ts";
import { createTumblrAdapter, type TumblrAdapterOptions } from "./tumblr.ts";

const tumblr = useUpstreamSandbox<TumblrAdapterOptions>({
  network: "tumblr",
  twinUrl: "tumblrUrl",
  create: createTumblrAdapter,
  garbageBodies: TUMBLR_GARBAGE_BODIES,
});

describe("Tumblr adapter against the sandbox", () => {
  tumblr.commonCases({
    success: {
      name: "reads the note count, the same on every call, flagged as sandbox data",
      url: "https://example.com/tumblr?a=1&b=2",
      value: (url) => ({ notes: deriveMoreCounts(url).tumblr }),
    },
    none: { name: "reports a note_count of 0 as a real zero", value: { notes: 0 } },
  });
});

/** Envelopes the sandbox never gives. */
describe("Tumblr adapter on unusual answers", () => {
  let body = "";
  const stub = useStub((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end(body));

  const run = (answer: unknown) => {
    body = JSON.stringify(answer);
    return tumblr.fetchCount("https://example.com/", { baseUrl: stub.baseUrl });
  };

  it.each([{}, [], { note_count: null }, { url: "https://example.com/" }])("classifies the response %j as unreported", async (response) => {
    expect(await run({ meta: { status: 200, msg: "OK" }, response })).toMatchObject({ ok: false, failure: "unreported" });
  });

  it("reads the envelope's status when the HTTP status is 200", async () => {
    expect(await run({ meta: { status: 429, msg: "Limit Exceeded" }, response: [] })).toMatchObject({
      ok: false,
      failure: "throttled",
      code: 429,
      detail: "meta.status 429: Limit Exceeded",
    });
    expect(await run({ meta: { status: 404, msg: "Not Found" }, response: [] })).toMatchObject({ ok: false, failure: "failed", code: 404 });
  });
});
