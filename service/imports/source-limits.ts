/** What one import may cost: every fetched document and the import as a whole are bounded by these. */
export interface SourceLimits {
  /** Refuse loopback/private/link-local/reserved addresses unless true (tests serve on 127.0.0.1). */
  allowPrivateHosts: boolean;
  /** Bytes per fetched document after decompression (50 MiB, the sitemap protocol's limit); more is an error naming it. */
  maxBytes: number;
  /** Bytes of all the import's documents after decompression; reading stops there (`byte_limit`). */
  maxImportBytes: number;
  /** Whole-request time limit per document, ms (connect + headers + body). */
  timeoutMs: number;
  /** URLs per sitemap file (the protocol's 50,000); more is an error naming the file. */
  maxUrlsPerFile: number;
  /** Sitemap files followed in total through sitemap indexes (nested indexes included); then `file_limit`. */
  maxFiles: number;
  /** URL entries (`<loc>`s, feed items) one import reads; then `url_limit`. */
  maxUrls: number;
}

export const DEFAULT_SOURCE_LIMITS: Omit<SourceLimits, "allowPrivateHosts"> = {
  maxBytes: 50 * 1024 * 1024,
  maxImportBytes: 200 * 1024 * 1024,
  timeoutMs: 30_000,
  maxUrlsPerFile: 50_000,
  maxFiles: 1000,
  maxUrls: 500_000,
};
