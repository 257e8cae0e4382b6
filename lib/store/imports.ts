/** Sitemap and feed imports of tracked URLs: queued, run by one worker at a time, feeds read again daily. */

export type ImportKind = "sitemap" | "feed";
export type ImportStatus = "queued" | "running" | "done" | "failed";

export interface UrlImport {
  id: string;
  accountId: string;
  kind: ImportKind;
  sourceUrl: string;
  status: ImportStatus;
  urlsFound: number;
  added: number;
  error: string | null;
  createdAt: number;
  updatedAt: number;
  nextReadAt: number | null;
}

export interface ImportOutcome {
  status: "done" | "failed";
  urlsFound: number;
  added: number;
  error: string | null;
  /** Feeds: when to read the feed again. */
  nextReadAt: number | null;
}

export interface ImportStore {
  create(entry: { id: string; accountId: string; kind: ImportKind; sourceUrl: string; at: number }): Promise<void>;
  get(accountId: string, id: string): Promise<UrlImport | null>;
  /** The account's imports, newest first. */
  list(accountId: string, limit: number): Promise<UrlImport[]>;
  /**
   * Takes the oldest import to run now, leased until `now + leaseMs`: a queued one, a feed due to be read
   * again, or one whose worker's lease ran out (it was killed). Null when there is none.
   */
  claim(now: number, leaseMs: number): Promise<UrlImport | null>;
  finish(id: string, outcome: ImportOutcome, at: number): Promise<void>;
  /** The account's imports waiting or running, and its feeds read again daily (what the caps count). */
  activeCounts(accountId: string): Promise<{ pending: number; feeds: number }>;
  /** Stops an import: a queued one fails as cancelled, a feed is not read again. Whether it was the account's. */
  cancel(accountId: string, id: string, at: number): Promise<boolean>;
}
