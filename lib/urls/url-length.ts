/**
 * The longest URL counted, tracked or read from an import. Apart from count-url.ts, so that what needs only the
 * number (a page's query check) does not bring the URL rule, and its IDNA tables, into the browser's scripts.
 */
export const MAX_URL_LENGTH = 2048;
