import { createDocumentFetcher, type DocumentFetcher, type FetchedDocument } from "./fetch-document.ts";
import { documentAt, ImportError } from "./import-error.ts";
import type { SourceLimits } from "./source-limits.ts";
import { UrlList } from "./url-list.ts";
import { readXml } from "./xml-stream.ts";

/**
 * The page URLs of a sitemap (https://www.sitemaps.org/protocol.html): a `<urlset>`'s `<url><loc>`s, or, for a
 * `<sitemapindex>`, those of every sitemap it lists, depth first, nested indexes included. `files` counts the
 * documents read, this one included; past `maxFiles` the rest are left unread and `truncated` is true, as it
 * is when more than `maxUrls` distinct URLs were found. A sitemap listed twice is read once; an index listing
 * one of the indexes that lead to it is an error (a loop).
 */
export async function readSitemap(url: string, limits: SourceLimits, signal?: AbortSignal): Promise<{ urls: string[]; files: number; truncated: boolean }> {
  return readSitemapWith(createDocumentFetcher(limits), url, limits, signal);
}

/** readSitemap on a given fetcher (tests pass one with seams); closes it. */
export async function readSitemapWith(fetcher: DocumentFetcher, url: string, limits: SourceLimits, signal?: AbortSignal) {
  const found = new UrlList(limits.maxUrls);
  const visited = new Set<string>();
  let files = 0;
  let truncated = false;

  const visit = async (fileUrl: string, ancestors: readonly string[]): Promise<void> => {
    files += 1;
    visited.add(withoutFragment(fileUrl));
    const file = await fetcher.read(fileUrl, "sitemap", (document) => readSitemapFile(document, fileUrl, found, limits), signal);
    visited.add(withoutFragment(file.url));
    const lineage = [...ancestors, withoutFragment(fileUrl), withoutFragment(file.url)];
    for (const listed of file.sitemaps) {
      if (found.truncated) return;
      const child = resolved(listed, file.url, fileUrl);
      if (lineage.includes(child)) {
        throw new ImportError(`The sitemap index at ${fileUrl} lists ${child}, an index that leads to it: sitemap indexes must not form a loop.`);
      }
      if (visited.has(child)) continue;
      if (files >= limits.maxFiles) {
        truncated = true;
        return;
      }
      await visit(child, lineage);
    }
  };

  try {
    await visit(url, []);
    return { urls: found.urls, files, truncated: truncated || found.truncated };
  } finally {
    await fetcher.close();
  }
}

/** Reads one sitemap file: its URLs go into `found`, the sitemaps an index lists are returned. */
async function readSitemapFile(document: FetchedDocument, requested: string, found: UrlList, limits: SourceLimits) {
  const sitemaps: string[] = [];
  let root: "urlset" | "sitemapindex" | undefined;
  let loc: string | null = null;
  let locs = 0;
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
          loc = "";
        }
      },
      text(text) {
        if (loc !== null) loc += text;
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
        if (root === "urlset") found.add(loc);
        else if (loc.trim() !== "") sitemaps.push(loc.trim());
        loc = null;
      },
      done: () => found.truncated,
    },
    documentAt("sitemap", requested),
  );
  return { url: document.url, sitemaps };
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
