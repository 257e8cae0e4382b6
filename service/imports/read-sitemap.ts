import { createDocumentFetcher, type DocumentFetcher, type FetchedDocument } from "./fetch-document.ts";
import { UrlText, type FoundUrls } from "./found-urls.ts";
import { documentAt, ImportError, ImportStopped } from "./import-error.ts";
import type { SourceLimits } from "./source-limits.ts";
import { readXml } from "./xml-stream.ts";

/**
 * The page URLs of a sitemap (https://www.sitemaps.org/protocol.html) into `found`: a `<urlset>`'s
 * `<url><loc>`s, or, for a `<sitemapindex>`, those of every sitemap it lists, depth first, nested indexes
 * included. `files` counts the documents read as they are begun (`onFile`), this one included; one more than
 * `maxFiles` stops the import (`file_limit`). A sitemap listed twice is read once; an index listing one of the
 * indexes that lead to it is an error (a loop).
 */
export async function readSitemap(url: string, limits: SourceLimits, found: FoundUrls, signal?: AbortSignal, onFile?: (files: number) => void): Promise<void> {
  return readSitemapWith(createDocumentFetcher(limits), url, limits, found, signal, onFile);
}

/** readSitemap on a given fetcher (tests pass one with seams); closes it. */
export async function readSitemapWith(
  fetcher: DocumentFetcher,
  url: string,
  limits: SourceLimits,
  found: FoundUrls,
  signal?: AbortSignal,
  onFile: (files: number) => void = () => {},
): Promise<void> {
  const visited = new Set<string>();
  let files = 0;
  /**
   * Listed sitemaps kept to be read, at every open level together: no more than can still be read (maxFiles), so
   * deep indexes of long lists hold a bounded list. One listed beyond it ends the import at the file limit.
   */
  let queued = 0;
  let dropped = false;

  const visit = async (fileUrl: string, ancestors: readonly string[]): Promise<void> => {
    files += 1;
    onFile(files);
    visited.add(withoutFragment(fileUrl));
    const room = Math.max(0, limits.maxFiles - files - queued);
    const file = await fetcher.read(fileUrl, "sitemap", (document) => readSitemapFile(document, fileUrl, found, limits, room), signal);
    dropped ||= file.dropped;
    queued += file.sitemaps.length;
    visited.add(withoutFragment(file.url));
    const lineage = [...ancestors, withoutFragment(fileUrl), withoutFragment(file.url)];
    for (const listed of file.sitemaps) {
      queued -= 1;
      const child = resolved(listed, file.url, fileUrl);
      if (lineage.includes(child)) {
        throw new ImportError(`The sitemap index at ${fileUrl} lists ${child}, an index that leads to it: sitemap indexes must not form a loop.`);
      }
      if (visited.has(child)) continue;
      if (files >= limits.maxFiles) throw new ImportStopped("file_limit");
      await visit(child, lineage);
    }
  };

  try {
    await visit(url, []);
    if (dropped) throw new ImportStopped("file_limit");
  } finally {
    await fetcher.close();
  }
}

/**
 * Reads one sitemap file: its URLs go into `found`; of the sitemaps an index lists, the first `room` are returned
 * (`dropped`: it listed more).
 */
async function readSitemapFile(document: FetchedDocument, requested: string, found: FoundUrls, limits: SourceLimits, room: number) {
  const sitemaps: string[] = [];
  let dropped = false;
  let root: "urlset" | "sitemapindex" | undefined;
  let loc: UrlText | null = null;
  let locs = 0;
  /** An index's entries are kept (they are read next): the same rule as page URLs, into this list. */
  const listed: FoundUrls = {
    add: (url) => void (sitemaps.length < room ? sitemaps.push(url) : (dropped = true)),
    tooLong: () => {},
    flush: async () => {},
  };
  await readXml(
    document.chunks,
    {
      open(name, _attributes, path) {
        if (path.length === 1) {
          if (name !== "urlset" && name !== "sitemapindex") {
            throw new ImportError(`The document at ${requested} is not a sitemap: its root element is <${name}>, where a sitemap has <urlset> or <sitemapindex>.`);
          }
          root = name;
        } else if (path.length === 3 && name === "loc" && path[1] === (root === "urlset" ? "url" : "sitemap")) {
          loc = new UrlText();
        }
      },
      text(text) {
        loc?.append(text);
      },
      close(_name, path) {
        if (loc === null || path.length !== 3) return;
        locs += 1;
        if (locs > limits.maxUrlsPerFile) {
          throw new ImportError(
            root === "urlset"
              ? `${documentAt("sitemap", requested)} lists more than ${limits.maxUrlsPerFile.toLocaleString("en-US")} URLs, the most one sitemap file may hold.`
              : `The sitemap index at ${requested} lists more than ${limits.maxUrlsPerFile.toLocaleString("en-US")} sitemaps, the most one index may hold.`,
          );
        }
        loc.deliver(root === "urlset" ? found : listed);
        loc = null;
      },
      afterChunk: () => found.flush(),
    },
    documentAt("sitemap", requested),
  );
  return { url: document.url, sitemaps, dropped };
}

function withoutFragment(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.hash = "";
    return parsed.href;
  } catch {
    return url;
  }
}

/** A listed sitemap's URL, against the index's own (the protocol wants absolute ones; relative ones are read too). */
function resolved(listed: string, base: string, index: string): string {
  try {
    const url = new URL(listed, base);
    url.hash = "";
    return url.href;
  } catch {
    throw new ImportError(`The sitemap index at ${index} lists "${listed}", which is not a valid URL.`);
  }
}
