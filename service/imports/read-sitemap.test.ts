import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { createDocumentFetcher } from "./fetch-document.ts";
import { ImportStopped } from "./import-error.ts";
import { readSitemap, readSitemapWith } from "./read-sitemap.ts";
import { collectUrls } from "../../test/support/found-urls.ts";
import { DEFAULT_SOURCE_LIMITS, type SourceLimits } from "./source-limits.ts";
import { importError, redirect, sitemapIndex, startTestServer, urlset, xml, type Route, type TestServer } from "../../test/support/document-server.ts";

const LIMITS: SourceLimits = { ...DEFAULT_SOURCE_LIMITS, allowPrivateHosts: true, timeoutMs: 2000 };

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
const serve = async (routes: Record<string, Route>, host?: string) => {
  const server = await startTestServer(routes, host);
  servers.push(server);
  return server;
};
/** What a sitemap hands an import: its URLs in order, the documents begun, and why reading stopped early. */
async function read(url: string, limits: Partial<SourceLimits> = {}) {
  const found = collectUrls();
  let files = 0;
  const result = () => ({ urls: found.urls, tooLong: found.tooLongCount, files, stopped: null as string | null });
  try {
    await readSitemap(url, { ...LIMITS, ...limits }, found, undefined, (n) => (files = n));
    return result();
  } catch (error) {
    if (error instanceof ImportStopped) return { ...result(), stopped: error.reason };
    throw error;
  }
}

describe("readSitemap", () => {
  it("reads a urlset: trimmed, entities decoded, in order (repeats too: the import counts them), other <loc>s ignored", async () => {
    const server = await serve({
      "/sitemap.xml": xml(`<?xml version="1.0" encoding="UTF-8"?>
<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <sm:url>
    <sm:loc>
      https://example.com/a?x=1&amp;y=2
    </sm:loc>
    <sm:lastmod>2026-01-01</sm:lastmod>
    <image:image><image:loc>https://example.com/photo.jpg</image:loc></image:image>
  </sm:url>
  <sm:url><sm:loc><![CDATA[https://example.com/b]]></sm:loc></sm:url>
  <sm:url><sm:loc>https://example.com/a?x=1&amp;y=2</sm:loc></sm:url>
  <sm:url><sm:loc>https://example.com/&#233;t&#xE9;</sm:loc></sm:url>
  <sm:url><sm:loc>   </sm:loc></sm:url>
</sm:urlset>`),
    });
    expect(await read(server.url("/sitemap.xml"))).toEqual({
      urls: ["https://example.com/a?x=1&y=2", "https://example.com/b", "https://example.com/a?x=1&y=2", "https://example.com/été"],
      tooLong: 0,
      files: 1,
      stopped: null,
    });
  });

  it("follows nested indexes depth first, reading gzipped and relative entries", async () => {
    const server = await serve({
      "/index.xml": xml(sitemapIndex(["/nested.xml", "/c.xml"])),
      "/nested.xml": (request, response) => xml(sitemapIndex([`http://${request.headers.host}/a.xml.gz`, "b.xml"]))(request, response),
      "/a.xml.gz": xml(gzipSync(urlset(["https://example.com/1", "https://example.com/2"])), { type: "application/gzip" }),
      "/b.xml": xml(urlset(["https://example.com/3", "https://example.com/1"]), { encoding: "gzip" }),
      "/c.xml": xml(urlset(["https://example.com/4"])),
    });
    expect(await read(server.url("/index.xml"))).toEqual({
      urls: ["https://example.com/1", "https://example.com/2", "https://example.com/3", "https://example.com/1", "https://example.com/4"],
      tooLong: 0,
      files: 5,
      stopped: null,
    });
  });

  it("follows a redirect, resolving relative entries against where the index was found", async () => {
    const server = await serve({
      "/old/index.xml": redirect("/new/index.xml", 301),
      "/new/index.xml": xml(sitemapIndex(["pages.xml"])),
      "/new/pages.xml": xml(urlset(["https://example.com/moved"])),
    });
    expect((await read(server.url("/old/index.xml"))).urls).toEqual(["https://example.com/moved"]);
  });

  it("reads a sitemap listed twice once, and refuses an index loop", async () => {
    const server = await serve({
      "/twice.xml": xml(sitemapIndex(["/left.xml", "/right.xml"])),
      "/left.xml": xml(sitemapIndex(["/shared.xml"])),
      "/right.xml": xml(sitemapIndex(["/shared.xml", "/shared.xml#again"])),
      "/shared.xml": xml(urlset(["https://example.com/shared"])),
      "/a.xml": xml(sitemapIndex(["/b.xml"])),
      "/b.xml": xml(sitemapIndex(["/a.xml"])),
      "/self.xml": xml(sitemapIndex(["/self.xml"])),
    });
    expect(await read(server.url("/twice.xml"))).toEqual({ urls: ["https://example.com/shared"], tooLong: 0, files: 4, stopped: null });
    expect(server.hits.filter((path) => path === "/shared.xml")).toHaveLength(1);

    await importError(read(server.url("/a.xml")), `The sitemap index at ${server.url("/b.xml")} lists ${server.url("/a.xml")}, an index that leads to it: sitemap indexes must not form a loop.`);
    await importError(read(server.url("/self.xml")), `The sitemap index at ${server.url("/self.xml")} lists ${server.url("/self.xml")}`);
  });

  it("reads at most maxFiles files, then stops the import (file_limit) keeping what it read", async () => {
    const children = Array.from({ length: 10 }, (_, i) => `/part-${i}.xml`);
    const server = await serve({
      "/index.xml": xml(sitemapIndex(children)),
      ...Object.fromEntries(children.map((path, i) => [path, xml(urlset([`https://example.com/${i}`]))])),
    });
    const result = await read(server.url("/index.xml"), { maxFiles: 4 });
    expect(result).toEqual({ urls: ["https://example.com/0", "https://example.com/1", "https://example.com/2"], tooLong: 0, files: 4, stopped: "file_limit" });
    expect(server.hits).toHaveLength(4);
  });

  it("keeps no more listed sitemaps than can still be read, at every level of nested indexes together", async () => {
    // Each index lists 200 sitemaps, the first of them another index: with 10 files to read, at most 9 are kept.
    const routes: Record<string, Route> = {};
    for (let level = 0; level < 5; level++) {
      const children = [`/level-${level + 1}.xml`, ...Array.from({ length: 199 }, (_, i) => `/leaf-${level}-${i}.xml`)];
      routes[`/level-${level}.xml`] = xml(sitemapIndex(children));
      for (let i = 0; i < 199; i++) routes[`/leaf-${level}-${i}.xml`] = xml(urlset([`https://example.com/${level}/${i}`]));
    }
    routes["/level-5.xml"] = xml(urlset(["https://example.com/deepest"]));
    const server = await serve(routes);
    const result = await read(server.url("/level-0.xml"), { maxFiles: 10 });
    expect(result).toMatchObject({ files: 10, stopped: "file_limit" });
    expect(server.hits).toHaveLength(10);
  });

  it("stops the import once its documents passed maxImportBytes in all (byte_limit), each file under its own bound", async () => {
    const children = Array.from({ length: 5 }, (_, i) => `/part-${i}.xml`);
    const page = (i: number) => urlset(Array.from({ length: 100 }, (_, j) => `https://example.com/${i}/${j}`));
    const server = await serve({
      "/index.xml": xml(sitemapIndex(children)),
      ...Object.fromEntries(children.map((path, i) => [path, xml(gzipSync(page(i)), { type: "application/gzip" })])),
    });
    const size = Buffer.byteLength(page(0));
    const result = await read(server.url("/index.xml"), { maxImportBytes: 2 * size + 1000 });
    expect(result.stopped).toBe("byte_limit");
    expect(result.urls.length).toBeGreaterThanOrEqual(200);
    expect(result.urls.length).toBeLessThan(300);
  });

  it("drops a <loc> over 2,048 characters as it streams, counting it, and reads on", async () => {
    const long = `https://example.com/${"x".repeat(3 * 1024 * 1024)}`;
    const server = await serve({
      "/long.xml": xml(urlset(["https://example.com/before", long, `https://example.com/${"y".repeat(2028)}`, "https://example.com/after"])),
    });
    const result = await read(server.url("/long.xml"));
    expect(result.urls).toEqual(["https://example.com/before", `https://example.com/${"y".repeat(2028)}`, "https://example.com/after"]);
    expect(result.tooLong).toBe(1);
  });

  it("refuses a file with more than maxUrlsPerFile URLs, naming it", async () => {
    const urls = Array.from({ length: 6 }, (_, i) => `https://example.com/${i}`);
    const server = await serve({ "/index.xml": xml(sitemapIndex(["/big.xml"])), "/big.xml": xml(urlset(urls)), "/five.xml": xml(urlset(urls.slice(1))) });
    await importError(read(server.url("/index.xml"), { maxUrlsPerFile: 5 }), `The sitemap at ${server.url("/big.xml")} lists more than 5 URLs, the most one sitemap file may hold.`);
    expect((await read(server.url("/five.xml"), { maxUrlsPerFile: 5 })).urls).toHaveLength(5);
  });

  it("says where XML is not well-formed, and what is not a sitemap", async () => {
    const server = await serve({
      "/broken.xml": xml(`<?xml version="1.0"?>\n<urlset>\n  <url><loc>https://example.com/</url>\n</urlset>`),
      "/empty.xml": xml(""),
      "/page.html": xml("<!DOCTYPE html>\n<html><body>Hello</body></html>", { type: "text/html" }),
      "/feed.xml": xml(`<rss version="2.0"><channel/></rss>`),
    });
    await importError(read(server.url("/broken.xml")), `The sitemap at ${server.url("/broken.xml")} is not well-formed XML (line 3, column 38: unexpected close tag).`);
    await importError(read(server.url("/empty.xml")), `The sitemap at ${server.url("/empty.xml")} is empty.`);
    await importError(read(server.url("/page.html")), `The document at ${server.url("/page.html")} is not a sitemap: its root element is <html>, where a sitemap has <urlset> or <sitemapindex>.`);
    await importError(read(server.url("/feed.xml")), "is not a sitemap: its root element is <rss>");
  });

  it("does not expand entities a DOCTYPE defines (billion laughs)", async () => {
    const entities = Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join("\n");
    const bomb = `<?xml version="1.0"?>\n<!DOCTYPE urlset [\n<!ENTITY lol0 "lol">\n${entities}\n]>\n<urlset><url><loc>https://example.com/&lol9;</loc></url></urlset>`;
    const server = await serve({ "/lol.xml": xml(bomb) });
    await importError(read(server.url("/lol.xml")), "is not well-formed XML (line 14, column", "invalid character entity");
  });

  it("passes every listed sitemap through the guard", async () => {
    const inside = await serve({ "/private.xml": xml(urlset(["https://example.com/secret"])) });
    const outside = await serve({ "/index.xml": xml(sitemapIndex([inside.url("/private.xml")])) }, "127.0.0.2");
    const limits = { ...LIMITS, allowPrivateHosts: false };
    await importError(
      readSitemapWith(createDocumentFetcher(limits, { alsoPublic: ["127.0.0.2"] }), outside.url("/index.xml"), limits, collectUrls()),
      `The sitemap at ${inside.url("/private.xml")} cannot be fetched: 127.0.0.1 is a loopback`,
    );
    expect(inside.hits).toEqual([]);
    await importError(read(inside.url("/private.xml"), { allowPrivateHosts: false }), "cannot be fetched: 127.0.0.1 is a loopback");
  });
});
