import { afterEach, describe, expect, it } from "vitest";
import { readFeed } from "./read-feed.ts";
import { collectUrls } from "../../test/support/found-urls.ts";
import { DEFAULT_SOURCE_LIMITS, type SourceLimits } from "./source-limits.ts";
import { importError, redirect, startTestServer, urlset, xml, type Route, type TestServer } from "../../test/support/document-server.ts";

const LIMITS: SourceLimits = { ...DEFAULT_SOURCE_LIMITS, allowPrivateHosts: true, timeoutMs: 2000 };

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
const serve = async (routes: Record<string, Route>) => {
  const server = await startTestServer(routes);
  servers.push(server);
  return server;
};
/** What a feed hands an import: its item URLs in order, and how many were too long. */
async function read(url: string, limits: Partial<SourceLimits> = {}) {
  const found = collectUrls();
  await readFeed(url, { ...LIMITS, ...limits }, found);
  return { urls: found.urls, tooLong: found.tooLongCount };
}

const RSS2 = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
  <channel>
    <title>Blog</title>
    <link>https://blog.example.com/</link>
    <atom:link href="https://blog.example.com/feed" rel="self" type="application/rss+xml"/>
    <item>
      <title>One</title>
      <atom:link href="https://blog.example.com/ignored" rel="alternate"/>
      <link> https://blog.example.com/one?a=1&amp;b=2 </link>
      <guid isPermaLink="true">https://blog.example.com/?p=1</guid>
    </item>
    <item><title>Two</title><link><![CDATA[https://blog.example.com/two]]></link></item>
    <item><title>Three</title><guid isPermaLink="true">https://blog.example.com/three</guid></item>
    <item><title>Four</title><guid>https://blog.example.com/four</guid></item>
    <item><title>Five</title><guid isPermaLink="false">post-5@blog.example.com</guid></item>
    <item><title>One again</title><link>https://blog.example.com/one?a=1&amp;b=2</link></item>
  </channel>
</rss>`;

const RSS1 = `<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/">
  <channel rdf:about="https://news.example.org/">
    <title>News</title>
    <link>https://news.example.org/</link>
    <items><rdf:Seq><rdf:li rdf:resource="https://news.example.org/a"/></rdf:Seq></items>
  </channel>
  <item rdf:about="https://news.example.org/a"><title>A</title><link>https://news.example.org/a</link></item>
  <item rdf:about="https://news.example.org/b"><title>B</title><link>https://news.example.org/b</link></item>
</rdf:RDF>`;

const ATOM = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>Site</title>
  <link href="/" rel="alternate"/>
  <link href="/atom.xml" rel="self"/>
  <entry>
    <title>Relative</title>
    <link href="posts/relative.html"/>
    <link rel="enclosure" href="/media/relative.mp3"/>
  </entry>
  <entry xml:base="https://cdn.example.net/en/">
    <title>Based</title>
    <link rel="alternate" type="text/html" href="based.html"/>
    <link rel="alternate" hreflang="fr" href="../fr/based.html"/>
    <link rel="related" href="https://elsewhere.example.com/"/>
  </entry>
  <entry><title>Absolute</title><link rel="alternate" href="https://example.com/absolute"/></entry>
  <entry><title>No link</title><id>urn:uuid:1</id></entry>
</feed>`;

describe("readFeed", () => {
  it("reads RSS 2.0 item links, falling back to permalink guids, in order (repeats too: the import counts them)", async () => {
    const server = await serve({ "/rss.xml": xml(RSS2, { type: "application/rss+xml" }) });
    expect(await read(server.url("/rss.xml"))).toEqual({
      urls: [
        "https://blog.example.com/one?a=1&b=2",
        "https://blog.example.com/two",
        "https://blog.example.com/three",
        "https://blog.example.com/four",
        "https://blog.example.com/one?a=1&b=2",
      ],
      tooLong: 0,
    });
  });

  it("reads RSS 1.0 (RDF) items", async () => {
    const server = await serve({ "/index.rdf": xml(RSS1) });
    expect((await read(server.url("/index.rdf"))).urls).toEqual(["https://news.example.org/a", "https://news.example.org/b"]);
  });

  it("reads Atom alternate links, resolved against xml:base and the feed's URL after redirects", async () => {
    const server = await serve({ "/old-feed": redirect("/blog/atom.xml"), "/blog/atom.xml": xml(ATOM, { type: "application/atom+xml" }) });
    expect((await read(server.url("/old-feed"))).urls).toEqual([
      server.url("/blog/posts/relative.html"),
      "https://cdn.example.net/en/based.html",
      "https://cdn.example.net/fr/based.html",
      "https://example.com/absolute",
    ]);
  });

  it("drops an item link or Atom href over 2,048 characters, counting it", async () => {
    const long = `https://blog.example.com/${"x".repeat(100_000)}`;
    const server = await serve({
      "/rss.xml": xml(`<rss><channel><item><link>${long}</link></item><item><guid>https://blog.example.com/ok</guid></item></channel></rss>`),
      "/atom.xml": xml(`<feed><entry><link href="${long.slice(0, 60_000)}"/></entry><entry><link href="https://example.com/a"/></entry></feed>`),
    });
    expect(await read(server.url("/rss.xml"))).toEqual({ urls: ["https://blog.example.com/ok"], tooLong: 1 });
    expect(await read(server.url("/atom.xml"))).toEqual({ urls: ["https://example.com/a"], tooLong: 1 });
  });

  it("refuses what is not a feed, or not well-formed", async () => {
    const server = await serve({
      "/sitemap.xml": xml(urlset(["https://example.com/"])),
      "/page.html": xml("<html><head><title>Hi</title></head></html>", { type: "text/html" }),
      "/broken.xml": xml(`<rss><channel><item><link>https://a.example/</item></channel></rss>`),
    });
    await importError(read(server.url("/sitemap.xml")), `The document at ${server.url("/sitemap.xml")} is not an RSS or Atom feed: its root element is <urlset>`);
    await importError(read(server.url("/page.html")), "is not an RSS or Atom feed: its root element is <html>");
    await importError(read(server.url("/broken.xml")), `The feed at ${server.url("/broken.xml")} is not well-formed XML (line 1, column`, "unexpected close tag");
  });

  it("does not expand entities a DOCTYPE defines (billion laughs)", async () => {
    const entities = Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join("");
    const bomb = `<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY lol0 "lol">${entities}]><rss><channel><item><link>&lol9;</link></item></channel></rss>`;
    const server = await serve({ "/lol.xml": xml(bomb) });
    await importError(read(server.url("/lol.xml")), "is not well-formed XML", "invalid character entity");
  });

  it("refuses deep nesting at once instead of spending time on it", async () => {
    const deep = (n: number) => `<rss><channel><item>${"<x>".repeat(n)}${"</x>".repeat(n)}</item></channel></rss>`;
    const server = await serve({ "/deep.xml": xml(deep(100_000)), "/ok.xml": xml(deep(90)) });
    const started = performance.now();
    await importError(read(server.url("/deep.xml")), `The feed at ${server.url("/deep.xml")} nests elements more than 100 deep`);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(await read(server.url("/ok.xml"))).toEqual({ urls: [], tooLong: 0 });
  });

  it("is guarded like any fetch", async () => {
    const server = await serve({ "/rss.xml": xml(RSS2) });
    await importError(read(server.url("/rss.xml"), { allowPrivateHosts: false }), `The feed at ${server.url("/rss.xml")} cannot be fetched: 127.0.0.1 is a loopback`);
    expect(server.hits).toEqual([]);
  });
});
