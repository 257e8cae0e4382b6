import { SharecountError } from "../../lib/errors.ts";

/**
 * A sitemap or feed could not be read. The message is a sentence the user can act on and names the URL at
 * fault; no lower-level error is attached, so nothing but that sentence reaches a log or an answer.
 */
export class ImportError extends SharecountError<"import_failed"> {
  static override readonly kind: string = "ImportError";

  constructor(message: string) {
    super("import_failed", message);
  }
}

export type DocumentKind = "sitemap" | "feed";

/** How every message names a document: "The sitemap at https://…". */
export const documentAt = (kind: DocumentKind, url: string) => `The ${kind} at ${url}`;
