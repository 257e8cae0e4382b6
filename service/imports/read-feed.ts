import { createDocumentFetcher, type DocumentFetcher } from "./fetch-document.ts";
import { addUrl, UrlText, type FoundUrls } from "./found-urls.ts";
import { documentAt, ImportError } from "./import-error.ts";
import type { SourceLimits } from "./source-limits.ts";
import { readXml, type XmlReader } from "./xml-stream.ts";

/**
 * The item URLs of an RSS 2.0, RSS 1.0 (RDF) or Atom feed, in document order, into `found`.
 *
 * - RSS: each `<item>`'s first non-empty `<link>`, else its `<guid>` when that is a permalink
 *   (`isPermaLink` absent or "true", the RSS 2.0 default). Taken as written.
 * - Atom: each `<entry>`'s `<link href>` whose `rel` is absent or "alternate", resolved against `xml:base`
 *   and the feed's URL (after redirects).
 */
export async function readFeed(url: string, limits: SourceLimits, found: FoundUrls, signal?: AbortSignal): Promise<void> {
  return readFeedWith(createDocumentFetcher(limits), url, found, signal);
}

/** readFeed on a given fetcher (tests pass one with seams); closes it. */
export async function readFeedWith(fetcher: DocumentFetcher, url: string, found: FoundUrls, signal?: AbortSignal): Promise<void> {
  try {
    await fetcher.read(url, "feed", (document) => readXml(document.chunks, feedReader(found, url, document.url), documentAt("feed", url)), signal);
  } finally {
    await fetcher.close();
  }
}

type Format = "rss" | "rdf" | "atom";
const ROOTS: Record<string, Format> = { rss: "rss", RDF: "rdf", feed: "atom" };
/** Where a format's items sit: `<rss><channel><item>`, `<rdf:RDF><item>`, `<feed><entry>`. */
const ITEM_PATHS: Record<Format, readonly string[]> = { rss: ["rss", "channel", "item"], rdf: ["RDF", "item"], atom: ["feed", "entry"] };
const ALTERNATE = new Set(["alternate", "http://www.iana.org/assignments/relation/alternate"]);

function feedReader(found: FoundUrls, requested: string, documentUrl: string): XmlReader {
  let format: Format | undefined;
  let itemPath: readonly string[] = [];
  /** The base URL in force at each open element (Atom's xml:base). */
  const bases: string[] = [];
  /** The RSS item being read: its link and permalink guid so far, and the text of the one open. */
  let item: { link?: UrlText; guid?: UrlText } | undefined;
  let capture: { into: "link" | "guid"; text: UrlText } | undefined;

  /** Whether the first `depth` names of `path` (all of it by default) are the item's path: no copies of `path`. */
  const inItem = (path: readonly string[], depth = path.length) => depth === itemPath.length && itemPath.every((name, i) => path[i] === name);

  return {
    open(name, attributes, path) {
      const parentBase = bases.at(-1) ?? documentUrl;
      bases.push(attributes["xml:base"] ? resolvedOr(attributes["xml:base"].trim(), parentBase, parentBase) : parentBase);
      if (path.length === 1) {
        format = ROOTS[name];
        if (!format) throw new ImportError(`The document at ${requested} is not an RSS or Atom feed: its root element is <${name}>, where a feed has <rss>, <rdf:RDF> or <feed>.`);
        itemPath = ITEM_PATHS[format];
      } else if (format === "atom") {
        if (name === "link" && inItem(path, path.length - 1) && attributes.href && ALTERNATE.has((attributes.rel ?? "alternate").trim())) {
          addUrl(found, resolvedOr(attributes.href.trim(), bases.at(-1)!, attributes.href));
        }
      } else if (inItem(path)) {
        item = {};
      } else if (item && inItem(path, path.length - 1)) {
        if (name === "link") capture = { into: "link", text: new UrlText() };
        else if (name === "guid" && (attributes.isPermaLink ?? "true").trim().toLowerCase() === "true") capture = { into: "guid", text: new UrlText() };
      }
    },
    text(text) {
      capture?.text.append(text);
    },
    close(_name, path) {
      bases.pop();
      if (!item) return;
      if (capture && path.length === itemPath.length + 1) {
        if (!capture.text.empty) item[capture.into] ??= capture.text;
        capture = undefined;
      } else if (inItem(path)) {
        (item.link ?? item.guid)?.deliver(found);
        item = undefined;
      }
    },
    afterChunk: () => found.flush(),
  };
}

/** `href` resolved against `base`, or `fallback` when it cannot be (the caller validates what it imports). */
function resolvedOr(href: string, base: string, fallback: string): string {
  try {
    return new URL(href, base).href;
  } catch {
    return fallback;
  }
}
