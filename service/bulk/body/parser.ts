import { ApiError } from "../../http/errors.ts";

/** What each content type's parser hands on (see read-body.ts), and what the form parsers (urlencoded, multipart) share. */

export type BodyEvent =
  | { kind: "line"; value: string }
  | { kind: "apikey"; value: string }
  /** Many lines in one string (JSON's `"urls": "…\n…"`): split a slice at a time by `bulkBodyEvents`. */
  | { kind: "text"; value: string };

export interface BodyParser {
  /** Parses one chunk, appending what it completes to `out`. Throws an ApiError for a malformed body. */
  push(chunk: Uint8Array, out: BodyEvent[]): void;
  /** The body is over: flushes what is left. */
  end(out: BodyEvent[]): Promise<void>;
}

/** A line longer than this is no URL (2,048 characters at most, percent-encoded up to three times as long). */
export const MAX_LINE = 16 * 1024;
export const MAX_KEY = 256;

export const invalidBody = (what: string) => new ApiError("invalid_body", 400, `The request body could not be read as ${what}.`);

export const isUrlsField = (name: string) => /^urls(\[\d*\])?$/.test(name);
export const isKeyField = (name: string) => name === "apikey" || name === "apiKey";
