import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { createDocumentFetcher, type FetchSeams } from "./fetch-document.ts";
import { DEFAULT_SOURCE_LIMITS, type SourceLimits } from "./source-limits.ts";
import { importError, redirect, startTestServer, urlset, xml, type Route, type TestServer } from "../../test/support/document-server.ts";

const LIMITS: SourceLimits = { ...DEFAULT_SOURCE_LIMITS, allowPrivateHosts: true, timeoutMs: 2000 };
const PUBLIC = { allowPrivateHosts: false };

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
const serve = async (routes: Record<string, Route>, host?: string) => {
  const server = await startTestServer(routes, host);
  servers.push(server);
  return server;
};

async function fetchText(url: string, limits: Partial<SourceLimits> = {}, seams?: FetchSeams, signal?: AbortSignal) {
  const fetcher = createDocumentFetcher({ ...LIMITS, ...limits }, seams);
  try {
    return await fetcher.read(
      url,
      "sitemap",
      async (document) => {
        const parts: Buffer[] = [];
        for await (const chunk of document.chunks) parts.push(chunk);
        return { url: document.url, text: Buffer.concat(parts).toString() };
      },
      signal,
    );
  } finally {
    await fetcher.close();
  }
}

const DOC = urlset(["https://example.com/a"]);

describe("fetching a document", () => {
  it("reads the body and says who is asking", async () => {
    const server = await serve({ "/s.xml": xml(DOC) });
    expect(await fetchText(server.url("/s.xml"))).toEqual({ url: server.url("/s.xml"), text: DOC });
    expect(server.lastHeaders["user-agent"]).toBe("sharecount-importer (+https://github.com/sharecount)");
    expect(server.lastHeaders.accept).toBe("application/xml, text/xml, application/rss+xml, application/atom+xml, */*;q=0.5");
  });

  it("refuses a non-2xx answer, naming the URL and the status", async () => {
    const server = await serve({ "/gone.xml": xml("<html/>", { status: 410 }) });
    await importError(fetchText(server.url("/gone.xml")), `The sitemap at ${server.url("/gone.xml")} could not be fetched: the server answered HTTP 410 (Gone).`);
    await importError(fetchText(server.url("/missing.xml")), "HTTP 404 (Not Found)");
  });

  it("says when nothing listens", async () => {
    const server = await serve({});
    const url = server.url("/s.xml");
    await server.close();
    await importError(fetchText(url), `The sitemap at ${url} could not be fetched: the server refused the connection.`);
  });

  it("refuses what is not a URL", async () => {
    await importError(fetchText("sitemap.xml"), 'The sitemap URL "sitemap.xml" is not a valid URL');
  });
});

describe("gzip", () => {
  it("decompresses a .gz file, a gzip Content-Encoding, and both at once", async () => {
    const server = await serve({
      "/s.xml.gz": xml(gzipSync(DOC), { type: "application/gzip" }),
      "/s.xml": xml(DOC, { encoding: "gzip" }),
      "/twice.xml.gz": xml(gzipSync(DOC), { type: "application/gzip", encoding: "gzip" }),
      "/plain.xml.gz": xml(DOC),
    });
    for (const path of ["/s.xml.gz", "/s.xml", "/twice.xml.gz", "/plain.xml.gz"]) {
      expect((await fetchText(server.url(path))).text).toBe(DOC);
    }
    expect(server.lastHeaders["accept-encoding"]).toBe("gzip");
  });

  it("says when gzip data is broken", async () => {
    const bad = gzipSync(DOC);
    bad.fill(0x41, 12, 40);
    const server = await serve({ "/s.xml.gz": xml(gzipSync(DOC).subarray(0, 30)), "/bad.xml.gz": xml(bad) });
    await importError(fetchText(server.url("/s.xml.gz")), `The sitemap at ${server.url("/s.xml.gz")} is cut short: its gzip data ends early.`);
    await importError(fetchText(server.url("/bad.xml.gz")), "is not valid gzip data.");
  });

  it("stops a gzip bomb as soon as the decompressed bytes pass maxBytes", async () => {
    // Endless 1 MiB gzip members of spaces, about 1 KiB each: only stopping early ends this.
    const member = gzipSync(Buffer.alloc(1 << 20, " "));
    let disconnected!: () => void;
    const closed = new Promise<void>((resolve) => (disconnected = resolve));
    const server = await serve({
      "/bomb.xml.gz": (_request, response) => {
        response.writeHead(200, { "content-type": "application/gzip" });
        response.write(gzipSync("<urlset>"));
        let open = true;
        response.on("close", () => {
          open = false;
          disconnected();
        });
        const pump = () => {
          while (open && response.write(member));
          if (open) response.once("drain", pump);
        };
        pump();
      },
    });
    await importError(fetchText(server.url("/bomb.xml.gz"), { maxBytes: 4 << 20 }), `The sitemap at ${server.url("/bomb.xml.gz")} is larger than 4 MB (after decompression)`);
    await closed;
  });

  it("refuses a plain body over maxBytes, announced or not", async () => {
    const big = `<urlset>${" ".repeat(2 << 20)}</urlset>`;
    const server = await serve({
      "/announced.xml": xml(big),
      "/chunked.xml": (_request, response) => {
        response.writeHead(200, { "content-type": "application/xml" });
        for (let i = 0; i < 4; i += 1) response.write(big.slice(i * (big.length / 4), (i + 1) * (big.length / 4)));
        response.end();
      },
    });
    await importError(fetchText(server.url("/announced.xml"), { maxBytes: 1 << 20 }), "is larger than 1 MB (after decompression)");
    await importError(fetchText(server.url("/chunked.xml"), { maxBytes: 1 << 20 }), "is larger than 1 MB (after decompression)");
  });
});

describe("redirects", () => {
  it("follows up to five, each target checked", async () => {
    const server = await serve({
      "/r1": redirect("/r2", 301),
      "/r2": redirect("/r3", 307),
      "/r3": redirect("/r4", 308),
      "/r4": redirect("/r5", 303),
      "/r5": redirect("/s.xml"),
      "/s.xml": xml(DOC),
      "/loop": redirect("/loop"),
      "/nowhere": (_request, response) => void response.writeHead(302).end(),
      "/to-file": redirect("file:///etc/passwd"),
    });
    expect(await fetchText(server.url("/r1"))).toEqual({ url: server.url("/s.xml"), text: DOC });
    await importError(fetchText(server.url("/loop")), `The sitemap at ${server.url("/loop")} redirects more than 5 times.`);
    await importError(fetchText(server.url("/nowhere")), "answered with a redirect (HTTP 302) that says nowhere to go");
    await importError(
      fetchText(server.url("/to-file")),
      `The sitemap at ${server.url("/to-file")} redirects to file:///etc/passwd, which cannot be fetched: only http and https URLs can be read.`,
    );
  });

  it("refuses a redirect to a loopback address when private hosts are not allowed", async () => {
    const inside = await serve({ "/secret.xml": xml(DOC) });
    // 127.0.0.2 plays a public host (through the seam); 127.0.0.1 stays what it is.
    const outside = await serve({ "/s.xml": redirect(inside.url("/secret.xml")) }, "127.0.0.2");
    await importError(
      fetchText(outside.url("/s.xml"), PUBLIC, { alsoPublic: ["127.0.0.2"] }),
      `The sitemap at ${outside.url("/s.xml")} redirects to ${inside.url("/secret.xml")}, which cannot be fetched: 127.0.0.1 is a loopback`,
    );
    expect(inside.hits).toEqual([]);
  });

  it("refuses a redirect to a name that resolves to a private address", async () => {
    const inside = await serve({ "/secret.xml": xml(DOC) });
    const outside = await serve({ "/s.xml": redirect(`http://metadata.example.com:${inside.port}/secret.xml`) }, "127.0.0.2");
    await importError(
      fetchText(outside.url("/s.xml"), PUBLIC, { alsoPublic: ["127.0.0.2"], lookup: async () => [{ address: "127.0.0.1", family: 4 }] }),
      "which cannot be fetched: its host name metadata.example.com resolves to 127.0.0.1",
    );
    expect(inside.hits).toEqual([]);
  });
});

describe("the private-address guard", () => {
  it("lets a loopback server through only with allowPrivateHosts", async () => {
    const server = await serve({ "/s.xml": xml(DOC) });
    expect((await fetchText(server.url("/s.xml"))).text).toBe(DOC);
    await importError(
      fetchText(server.url("/s.xml"), PUBLIC),
      `The sitemap at ${server.url("/s.xml")} cannot be fetched: 127.0.0.1 is a loopback, private, link-local or reserved address, and only public hosts can be read.`,
    );
    expect(server.hits).toEqual(["/s.xml"]);
  });

  it.each([
    ["http://[::1]:8080/s.xml", "::1 is a loopback"],
    ["http://10.0.0.1/s.xml", "10.0.0.1 is a loopback"],
    ["http://192.168.1.1/s.xml", "192.168.1.1 is a loopback"],
    ["http://169.254.169.254/latest/meta-data/", "169.254.169.254 is a loopback"],
    ["http://0.0.0.0/s.xml", "0.0.0.0 is a loopback"],
    ["http://[::ffff:127.0.0.1]/s.xml", "::ffff:7f00:1 is a loopback"],
    ["http://0x7f.1/s.xml", "127.0.0.1 is a loopback"],
    ["http://2130706433/s.xml", "127.0.0.1 is a loopback"],
    ["http://[fd00::1]/s.xml", "fd00::1 is a loopback"],
    ["http://localhost:8080/s.xml", "not localhost"],
    ["http://intranet/s.xml", "the URL must name a public host"],
    ["http://printer.local/s.xml", "the URL must name a public host"],
    ["file:///etc/passwd", "only http and https URLs can be read"],
    ["ftp://example.com/s.xml", "only http and https URLs can be read"],
  ])("refuses %s", async (url, reason) => {
    const error = await importError(fetchText(url, PUBLIC), "cannot be fetched", reason);
    expect(error.message).toMatch(/^The sitemap at \S+ cannot be fetched: /);
  });

  it("checks every address a name resolves to, when connecting", async () => {
    const server = await serve({ "/s.xml": xml(DOC) });
    const url = `http://sitemaps.example.com:${server.port}/s.xml`;
    const resolvesTo = (...addresses: string[]) => ({
      lookup: async () => addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 })),
    });
    // The lookup is what connects: with private hosts allowed, the name reaches the loopback server.
    expect((await fetchText(url, {}, resolvesTo("127.0.0.1"))).text).toBe(DOC);
    await importError(fetchText(url, PUBLIC, resolvesTo("127.0.0.1")), `The sitemap at ${url} cannot be fetched: its host name sitemaps.example.com resolves to 127.0.0.1`);
    await importError(fetchText(url, PUBLIC, resolvesTo("93.184.215.14", "10.1.2.3")), "resolves to 10.1.2.3");
    await importError(fetchText(url, PUBLIC, resolvesTo("2606:4700::1", "::1")), "resolves to ::1");
    expect(server.hits).toEqual(["/s.xml"]);
  });

  it("says when a name does not resolve", async () => {
    const notFound = Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" });
    await importError(
      fetchText("http://no-such-host.example.com/s.xml", PUBLIC, { lookup: () => Promise.reject(notFound) }),
      "The sitemap at http://no-such-host.example.com/s.xml could not be fetched: the host name no-such-host.example.com could not be resolved (ENOTFOUND).",
    );
  });
});

describe("the time limit", () => {
  const hang: Route = () => {};
  const trickle: Route = (_request, response) => {
    response.writeHead(200, { "content-type": "application/xml" });
    response.write("<urlset>");
    const timer = setInterval(() => response.write(" "), 20);
    response.on("close", () => clearInterval(timer));
  };

  it("covers a server that never answers, one that trickles its body, and a lookup that never ends", async () => {
    const server = await serve({ "/hang.xml": hang, "/trickle.xml": trickle });
    const started = Date.now();
    await importError(fetchText(server.url("/hang.xml"), { timeoutMs: 300 }), `The sitemap at ${server.url("/hang.xml")} did not load within 0.3 seconds.`);
    await importError(fetchText(server.url("/trickle.xml"), { timeoutMs: 300 }), "did not load within 0.3 seconds");
    await importError(fetchText("http://slow-dns.example.com/s.xml", { timeoutMs: 300 }, { lookup: () => new Promise(() => {}) }), "did not load within 0.3 seconds");
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("stops when the caller aborts", async () => {
    const server = await serve({ "/hang.xml": hang });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    await importError(fetchText(server.url("/hang.xml"), {}, undefined, controller.signal), `Reading the sitemap at ${server.url("/hang.xml")} was cancelled.`);
  });
});
