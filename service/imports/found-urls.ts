import { MAX_URL_LENGTH } from "../../lib/urls/url-length.ts";

/**
 * Where a sitemap or feed reader puts the URLs it finds, as it finds them: the import behind it adds them a
 * batch at a time, so an import holds a batch, never the whole list.
 */
export interface FoundUrls {
  /** A URL as the document wrote it (a `<loc>`, an item's link), trimmed, at most MAX_URL_LENGTH characters. */
  add(url: string): void;
  /** An entry longer than MAX_URL_LENGTH: dropped as it streamed, only counted. */
  tooLong(): void;
  /** Awaited between chunks of a document: hands the batch on; throws ImportStopped to stop reading. */
  flush(): Promise<void>;
}

/** Whitespace allowed around a URL in a text node before it is taken as too long (indentation, line breaks). */
const SLACK = 1024;

/**
 * One URL read from text nodes that may arrive in pieces (see XmlReader.text): what is kept stops growing once
 * it can no longer be a URL of MAX_URL_LENGTH characters, so a 48 MB `<loc>` costs no more than a short one.
 */
export class UrlText {
  private text = "";
  private over = false;

  append(piece: string): void {
    if (this.over) return;
    this.text = this.text === "" ? piece.trimStart() : this.text + piece;
    if (this.text.length > MAX_URL_LENGTH + SLACK) {
      this.over = true;
      this.text = "";
    }
  }

  /** Nothing but whitespace so far. */
  get empty(): boolean {
    return !this.over && this.text.trim() === "";
  }

  /** Hands the URL to `found` (nothing for an empty one). */
  deliver(found: FoundUrls): void {
    if (this.over) found.tooLong();
    else addUrl(found, this.text);
  }
}

/** A URL read whole (an attribute), by the same rule. */
export function addUrl(found: FoundUrls, text: string): void {
  const url = text.trim();
  if (url.length > MAX_URL_LENGTH) found.tooLong();
  else if (url !== "") found.add(url);
}
