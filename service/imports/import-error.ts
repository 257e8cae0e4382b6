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

/**
 * Why an import stopped reading before the end of what it lists, when that is no failure: what it added stays.
 * `tracked_limit`: the plan's tracked URLs are all used; `quota`: today's quota is spent; `file_limit`,
 * `byte_limit`, `url_limit`, `time_limit`: one of an import's bounds (SourceLimits); `cancelled`: by its account;
 * `shutdown`: its worker is stopping (the import is run again by another).
 */
export type StopReason = "tracked_limit" | "quota" | "file_limit" | "byte_limit" | "url_limit" | "time_limit" | "cancelled" | "shutdown";

/** Thrown through the readers to stop an import early (see StopReason). */
export class ImportStopped extends Error {
  constructor(readonly reason: StopReason) {
    super(`import stopped: ${reason}`);
  }
}
