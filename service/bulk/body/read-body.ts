import { apiErrors } from "../../http/errors.ts";
import { formParser } from "./form.ts";
import { jsonParser } from "./json.ts";
import { LineSplitter, linesParser } from "./lines.ts";
import { multipartParser } from "./multipart.ts";
import type { BodyEvent, BodyParser } from "./parser.ts";

/**
 * A bulk job's body, read as it arrives: every shape clients send (lines as text/plain or with no type, a
 * `urls` form field urlencoded or multipart, as text or file, or JSON `{"urls": [...]}`) becomes a stream of
 * URL lines and the `apikey` when the body carries one. Each chunk is parsed on its own, so no synchronous
 * step is longer than a chunk's worth, and nothing is kept but the line being read: a 24 MB body costs its
 * chunks, not 24 MB.
 */

/** Whether a body of this type can hold the key (a plain list of lines cannot). */
export function bodyCanCarryKey(contentType: string): boolean {
  return /^(multipart\/form-data|application\/x-www-form-urlencoded|application\/json)\b/i.test(contentType);
}

export function bodyParser(contentType: string): BodyParser {
  if (/^multipart\/form-data\b/i.test(contentType)) return multipartParser(contentType);
  if (/^application\/json\b/i.test(contentType)) return jsonParser();
  if (/^application\/x-www-form-urlencoded\b/i.test(contentType)) return formParser();
  return linesParser();
}

/** Slices of a text that are split into lines one at a time, between which other requests get their turn. */
const TEXT_SLICE = 64 * 1024;
/** A chunk is parsed this much at a time: each is a short synchronous step, between which others get a turn. */
const PIECE = 16 * 1024;

/**
 * The body's events in batches, one batch per chunk received (or per slice of a long JSON string). Throws
 * `body_too_large` as soon as more than `maxBytes` arrived, and an ApiError for a malformed body. `chunks`
 * must apply backpressure (a Node request read as it is iterated does; Node 20's Readable.toWeb queues
 * the whole body for a slower reader), so an unread body waits in the socket, not in memory.
 */
export async function* bulkBodyEvents(chunks: AsyncIterable<Uint8Array>, contentType: string, maxBytes: number): AsyncGenerator<BodyEvent[]> {
  const parser = bodyParser(contentType);
  let size = 0;
  const expand = function* (events: BodyEvent[]): Generator<BodyEvent[]> {
    let batch: BodyEvent[] = [];
    if (!events.some((event) => event.kind === "text")) return void (yield events);
    for (const event of events) {
      if (event.kind !== "text") {
        batch.push(event);
        continue;
      }
      if (batch.length > 0) yield batch;
      batch = [];
      const lines = new LineSplitter();
      for (let at = 0; at < event.value.length; at += TEXT_SLICE) {
        const out: BodyEvent[] = [];
        lines.pushText(event.value.slice(at, at + TEXT_SLICE), out);
        yield out;
      }
      const rest: BodyEvent[] = [];
      lines.end(rest);
      yield rest;
    }
    if (batch.length > 0) yield batch;
  };
  // Nothing of a chunk is held while the consumer gives other requests their turn: under load what is held
  // across turns outlives V8's young generation, and four bodies' chunks would pile up until a full GC.
  for await (let chunk of chunks as AsyncIterable<Uint8Array | null>) {
    size += chunk!.byteLength;
    if (size > maxBytes) throw apiErrors.bodyTooLarge(maxBytes);
    const length = chunk!.byteLength;
    for (let at = 0; at < length; at += PIECE) {
      const out: BodyEvent[] = [];
      parser.push(chunk!.subarray(at, at + PIECE), out);
      if (at + PIECE >= length) chunk = null;
      yield* expand(out);
    }
  }
  const out: BodyEvent[] = [];
  await parser.end(out);
  yield* expand(out);
}
