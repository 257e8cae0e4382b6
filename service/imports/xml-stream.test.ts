import { describe, expect, it } from "vitest";
import { importError } from "../../test/support/document-server.ts";
import { readXml } from "./xml-stream.ts";

/** The text of every `<loc>`, the document given in `chunks`. */
async function locs(...chunks: Buffer[]): Promise<string[]> {
  const found: string[] = [];
  let text: string | null = null;
  await readXml(
    (async function* () {
      yield* chunks;
    })(),
    {
      open: (name) => void (name === "loc" && (text = "")),
      text: (part) => void (text !== null && (text += part)),
      close: (name) => {
        if (name === "loc" && text !== null) found.push(text);
        text = null;
      },
      afterChunk: async () => {},
    },
    "The sitemap at https://example.com/s.xml",
  );
  return found;
}

/** `bytes` cut into one-byte chunks: every multi-byte character and the declaration arrive split. */
const bytewise = (bytes: Buffer) => Array.from(bytes, (byte) => Buffer.from([byte]));

describe("readXml", () => {
  it("decodes UTF-8 split anywhere", async () => {
    expect(await locs(...bytewise(Buffer.from("<urlset><loc>https://example.com/éè€😀</loc></urlset>")))).toEqual(["https://example.com/éè€😀"]);
  });

  it("honours a byte-order mark and the declared encoding", async () => {
    const doc = "<urlset><loc>https://example.com/é</loc></urlset>";
    const bom = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(Buffer.from(doc, "utf16le").swap16())]);
    expect(await locs(Buffer.from([0xff, 0xfe]), Buffer.from(doc, "utf16le"))).toEqual(["https://example.com/é"]);
    expect(await locs(...bytewise(bom))).toEqual(["https://example.com/é"]);
    expect(await locs(...bytewise(Buffer.from(`<?xml version="1.0" encoding="ISO-8859-1"?>${doc}`, "latin1")))).toEqual(["https://example.com/é"]);
    expect(await locs(Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(doc))).toEqual(["https://example.com/é"]);
  });

  it("refuses an encoding it cannot read", async () => {
    await importError(
      locs(Buffer.from(`<?xml version="1.0" encoding="x-klingon"?><urlset/>`)),
      'The sitemap at https://example.com/s.xml declares the character encoding "x-klingon", which cannot be read.',
    );
  });

  it("gives line and column of a well-formedness error", async () => {
    await importError(locs(Buffer.from("<urlset>\n<loc>a</loc>\n<loc>b</urlset>")), "The sitemap at https://example.com/s.xml is not well-formed XML (line 3, column 15: unexpected close tag).");
    await importError(locs(Buffer.from("<urlset><loc>a</loc>")), "is not well-formed XML (line 1, column 20: unclosed root tag).");
  });

  it("refuses a billion-laughs document at once, without expanding it", async () => {
    const entities = Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join("\n");
    const bomb = `<?xml version="1.0"?>\n<!DOCTYPE lolz [\n<!ENTITY lol0 "lol">\n${entities}\n]>\n<urlset><loc>&lol9;</loc></urlset>`;
    const started = Date.now();
    await importError(locs(Buffer.from(bomb)), "is not well-formed XML (line 14, column 19: invalid character entity).");
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("reads no external entity", async () => {
    const external = `<?xml version="1.0"?><!DOCTYPE urlset [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><urlset><loc>&xxe;</loc></urlset>`;
    await importError(locs(Buffer.from(external)), "invalid character entity");
  });

  it("hands a long text node on in pieces of at most 128 KiB, never whole", async () => {
    const pieces: number[] = [];
    await readXml(
      (async function* () {
        yield Buffer.from("<urlset><loc>");
        for (let i = 0; i < 40; i++) yield Buffer.alloc(64 * 1024, "a");
        yield Buffer.from("</loc></urlset>");
      })(),
      { open: () => {}, text: (part) => void pieces.push(part.length), close: () => {}, afterChunk: async () => {} },
      "The sitemap at https://example.com/s.xml",
    );
    expect(pieces.reduce((a, b) => a + b, 0)).toBe(40 * 64 * 1024);
    expect(Math.max(...pieces)).toBeLessThanOrEqual(2 * 64 * 1024);
  });

  it("refuses an attribute value or comment that grows past 128 KiB instead of holding it", async () => {
    await importError(locs(Buffer.from(`<urlset a="${"x".repeat(200_000)}"/>`)), "has an attribute value longer than 65,536 characters");
    await importError(locs(Buffer.from(`<urlset><!--${"x".repeat(200_000)}--></urlset>`)), "has a comment longer than 65,536 characters");
  });

  it("refuses an element with too many attributes, or too much of them, however small each is", async () => {
    const many = Array.from({ length: 100 }, (_, i) => `a${i}="x"`).join(" ");
    await importError(locs(Buffer.from(`<urlset ${many}/>`)), "has an element with more than 64 attributes");
    const large = Array.from({ length: 20 }, (_, i) => `a${i}="${"x".repeat(60_000)}"`).join(" ");
    await importError(locs(Buffer.from(`<urlset ${large}/>`)), "has an element with more than 64 attributes or 65,536 characters of them");
    expect(await locs(Buffer.from(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="x"><loc>https://example.com/</loc></urlset>`))).toEqual([
      "https://example.com/",
    ]);
  });
});
