import Busboy, { type BusboyInstance } from "@fastify/busboy";
import { Tokenizer } from "@streamparser/json";
import { ApiError, apiErrors } from "../http/errors.ts";

/**
 * A bulk job's body, read as it arrives: every shape clients send (lines as text/plain or with no type, a
 * `urls` form field urlencoded or multipart, as text or file, or JSON `{"urls": [...]}`) becomes a stream of
 * URL lines and the `apikey` when the body carries one. Each chunk is parsed on its own, so no synchronous
 * step is longer than a chunk's worth, and nothing is kept but the line being read: a 24 MB body costs its
 * chunks, not 24 MB.
 */

export type BodyEvent =
  | { kind: "line"; value: string }
  | { kind: "apikey"; value: string }
  /** Many lines in one string (JSON's `"urls": "…\n…"`): split a slice at a time by `bulkBodyEvents`. */
  | { kind: "text"; value: string };

interface BodyParser {
  /** Parses one chunk, appending what it completes to `out`. Throws an ApiError for a malformed body. */
  push(chunk: Uint8Array, out: BodyEvent[]): void;
  /** The body is over: flushes what is left. */
  end(out: BodyEvent[]): Promise<void>;
}

/** A line longer than this is no URL (2,048 characters at most, percent-encoded up to three times as long). */
const MAX_LINE = 16 * 1024;
const MAX_KEY = 256;

export const invalidBody = (what: string) => new ApiError("invalid_body", 400, `The request body could not be read as ${what}.`);

const isUrlsField = (name: string) => /^urls(\[\d*\])?$/.test(name);
const isKeyField = (name: string) => name === "apikey" || name === "apiKey";

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

/**
 * Text split into lines (LF, CRLF or CR). An over-long line is cut (it is invalid either way); empty lines are
 * passed over here (a run of line breaks is one split), where a body of nothing but line breaks would
 * otherwise make an event of every byte.
 */
class LineSplitter {
  private readonly decoder = new TextDecoder();
  private pending = "";

  pushText(text: string, out: BodyEvent[]): void {
    const parts = (this.pending + text).split(/[\r\n]+/);
    this.pending = parts.pop()!;
    if (this.pending.length > MAX_LINE) this.pending = this.pending.slice(0, MAX_LINE);
    for (const line of parts) if (line) out.push({ kind: "line", value: line.length > MAX_LINE ? line.slice(0, MAX_LINE) : line });
  }

  pushBytes(chunk: Uint8Array, out: BodyEvent[]): void {
    this.pushText(this.decoder.decode(chunk, { stream: true }), out);
  }

  end(out: BodyEvent[]): void {
    this.pushText(this.decoder.decode(), out);
    if (this.pending.length > 0) out.push({ kind: "line", value: this.pending });
    this.pending = "";
  }
}

function linesParser(): BodyParser {
  const lines = new LineSplitter();
  return {
    push: (chunk, out) => lines.pushBytes(chunk, out),
    end: async (out) => lines.end(out),
  };
}

/**
 * Form decoding of one short piece read as latin1 (one character per byte): `+` is a space, escapes are
 * UTF-8, raw bytes above 0x7f are UTF-8 too (leniently), and what is not a valid escape is kept as it is.
 */
function formDecode(raw: string): string {
  const text = /[^\x00-\x7f]/.test(raw) ? Buffer.from(raw, "latin1").toString("utf8") : raw;
  if (!/[%+]/.test(text)) return text;
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return new URLSearchParams(`v=${text}`).get("v") ?? "";
  }
}

/**
 * `application/x-www-form-urlencoded`. A body that does not start with a form field (`curl --data-binary
 * @urls.txt` labels a plain list so) is read as lines. A form's `urls` values are split at their encoded line
 * breaks and each line is decoded alone, so a 24 MB field is never one string.
 */
function formParser(): BodyParser {
  let mode: "undecided" | "lines" | "form" = "undecided";
  let head: Uint8Array[] = [];
  let headSize = 0;
  const lines = new LineSplitter();
  // Form state: the raw text not yet split, the current field's name, and the key collected so far.
  let raw = "";
  let field: string | null = null;
  let key = "";

  // A form starts with a field: a name, then `=` or `&`. A list's first line (a URL, a CSV header such as `url`)
  // ends at a line break, or holds `://` before any `=`.
  const decide = (): "lines" | "form" | null => {
    const text = new TextDecoder().decode(Buffer.concat(head)).replace(/^[\s\uFEFF]+/, "");
    if (/^https?:\/\//i.test(text)) return "lines";
    const delimiter = /[=&\r\n]/.exec(text);
    if (!delimiter) return headSize > 1024 ? "lines" : null;
    const formField = (delimiter[0] === "=" || delimiter[0] === "&") && /^[\w.\-[\]%]+$/.test(text.slice(0, delimiter.index));
    return formField ? "form" : "lines";
  };

  const drainForm = (out: BodyEvent[], final: boolean) => {
    for (;;) {
      if (field === null) {
        const end = raw.search(/[=&]/);
        if (end === -1) {
          if (final) raw = "";
          else if (raw.length > MAX_LINE) raw = raw.slice(-1);
          return;
        }
        field = formDecode(raw.slice(0, end));
        // A name without a value (`&flag&`) ends here.
        const bare = raw[end] === "&";
        raw = raw.slice(end + 1);
        if (bare) field = null;
        continue;
      }
      const separator = /%0[aAdD]|[\r\n&]/.exec(raw);
      if (!separator) {
        if (final) {
          finishPiece(raw, true, out);
          raw = "";
          return;
        }
        // Keep the tail that may be a split escape; an over-long piece is cut (it is no URL).
        if (raw.length > MAX_LINE * 3) raw = raw.slice(0, MAX_LINE * 3);
        return;
      }
      finishPiece(raw.slice(0, separator.index), separator[0] === "&", out);
      raw = raw.slice(separator.index + separator[0].length);
    }
  };
  // What is left of a chunk's text once split: a copy, so the chunk's whole text is not kept alive by it.
  const ownCopy = (text: string) => Buffer.from(text, "latin1").toString("latin1");

  const finishPiece = (piece: string, fieldEnds: boolean, out: BodyEvent[]) => {
    const name = field!;
    const value = () => formDecode(piece).slice(0, MAX_LINE);
    if (isUrlsField(name)) out.push({ kind: "line", value: value() });
    else if (isKeyField(name) && key.length <= MAX_KEY) key += piece.slice(0, MAX_KEY * 3);
    if (fieldEnds) {
      if (isKeyField(name)) {
        out.push({ kind: "apikey", value: formDecode(key) });
        key = "";
      }
      field = null;
    }
  };

  const pushForm = (chunk: Uint8Array, out: BodyEvent[]) => {
    // One character per byte, whatever the bytes (TextDecoder's "latin1" is windows-1252, which maps some).
    raw += Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString("latin1");
    drainForm(out, false);
    raw = ownCopy(raw);
  };

  return {
    push(chunk, out) {
      if (mode === "lines") return lines.pushBytes(chunk, out);
      if (mode === "form") return pushForm(chunk, out);
      head.push(chunk);
      headSize += chunk.byteLength;
      const decided = decide();
      if (!decided) return;
      mode = decided;
      const buffered = head;
      head = [];
      for (const part of buffered) this.push(part, out);
    },
    async end(out) {
      if (mode === "undecided") {
        mode = decide() ?? "lines";
        for (const part of head) this.push(part, out);
        head = [];
      }
      if (mode === "lines") return lines.end(out);
      drainForm(out, true);
    },
  };
}

/** `multipart/form-data`: a `urls` part (text or file) is streamed line by line; `apikey` is a small field. */
function multipartParser(contentType: string): BodyParser {
  let failure: unknown = null;
  let busboy: BusboyInstance;
  const queued: BodyEvent[] = [];
  try {
    busboy = new Busboy({
      headers: { "content-type": contentType },
      // Every urls part streams, whether the client sent it as a file or as a text field.
      isPartAFile: (name) => name !== undefined && isUrlsField(name),
      limits: { fieldSize: MAX_KEY * 4, fields: 100, parts: 200, headerPairs: 50 },
    });
  } catch {
    throw invalidBody("multipart form data (its Content-Type has no boundary)");
  }
  const finished = new Promise<void>((resolve) => {
    busboy.on("finish", resolve);
    busboy.on("error", (error: unknown) => {
      failure = error;
      resolve();
    });
  });
  busboy.on("file", (_name: string, stream: NodeJS.ReadableStream) => {
    const lines = new LineSplitter();
    stream.on("data", (data: Buffer) => lines.pushBytes(data, queued));
    stream.on("end", () => lines.end(queued));
    // A body cut off inside this part fails the part as well as the form.
    stream.on("error", (error: unknown) => (failure = error));
  });
  busboy.on("field", (name: string, value: string) => {
    if (isKeyField(name)) queued.push({ kind: "apikey", value });
  });
  const flush = (out: BodyEvent[]) => {
    out.push(...queued);
    queued.length = 0;
    if (failure) throw invalidBody("multipart form data");
  };
  return {
    push(chunk, out) {
      busboy.write(chunk);
      flush(out);
    },
    async end(out) {
      busboy.end();
      await finished;
      flush(out);
    },
  };
}

/** The longest run of bytes a JSON body may spend on one token, or on white space between two. */
const MAX_JSON_RUN = 64 * 1024;
/** …except the root's `urls` as one string of lines: 10,000 URLs of 400 characters. */
const MAX_JSON_URLS_STRING = 4 * 1024 * 1024;
const JSON_FORM = 'JSON of the form {"urls": ["https://…", …]}';

/**
 * JSON `{"urls": ["…", …] | "…\n…", "apikey": "…"}`, tokenized as it arrives (the array's URLs are not kept
 * once read) and checked against that shape; other members are allowed and ignored. The tokenizer gathers a
 * token whole before handing it over, so no token (nor white space) may run past MAX_JSON_RUN bytes: a number
 * or string megabytes long would otherwise be gathered a character at a time.
 */
function jsonParser(): BodyParser {
  const tokenizer = new Tokenizer({ emitPartialTokens: true });
  const shape = new JsonShape();
  let pending: BodyEvent[] = [];
  let fed = 0;
  // Where the token being gathered (or the last one) starts, and whether it is (or was) the root's `urls` string.
  let tokenAt = 0;
  let urlsString = false;
  tokenizer.onToken = ({ token, value, offset, partial }) => {
    tokenAt = offset;
    urlsString = token === T.STRING && shape.expectsUrls;
    // A partial token only says how far it has come (the tokenizer ignores what is thrown from those calls).
    if (!partial) shape.token(token, value, pending);
  };
  // The tokenizer hands errors thrown by onToken (the shape's) here too.
  tokenizer.onError = (error) => {
    throw error instanceof ApiError ? error : invalidBody(JSON_FORM);
  };
  const run = (action: () => void, out: BodyEvent[]) => {
    try {
      action();
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw invalidBody(JSON_FORM);
    } finally {
      out.push(...pending);
      pending = [];
    }
  };
  return {
    push: (chunk, out) =>
      run(() => {
        fed += chunk.byteLength;
        tokenizer.write(chunk);
        const limit = MAX_JSON_RUN + (urlsString || shape.expectsUrls ? MAX_JSON_URLS_STRING : 0);
        if (fed - tokenAt > limit) throw invalidBody(`JSON whose strings and numbers (and the spaces between them) run at most ${MAX_JSON_RUN / 1024} KiB, and "urls" as one string at most ${MAX_JSON_URLS_STRING / 1048576} MiB`);
      }, out),
    async end(out) {
      run(() => {
        if (!tokenizer.isEnded) tokenizer.end();
        shape.end();
      }, out);
    },
  };
}

/** Token types of @streamparser/json's tokenizer (its TokenType enum is not exported as a value). */
const T = { LEFT_BRACE: 0, RIGHT_BRACE: 1, LEFT_BRACKET: 2, RIGHT_BRACKET: 3, COLON: 4, COMMA: 5, STRING: 9 } as const;

/** Deeper than the shape ever goes (root, urls, a URL): a bound, so nesting cannot grow the stack without end. */
const MAX_JSON_DEPTH = 64;

/** A pushdown check of JSON's grammar that also picks out the root's `urls` and `apikey`. */
class JsonShape {
  /** Open containers and what each expects next. */
  private readonly stack: { kind: "object" | "array"; expect: "key" | "colon" | "value" | "next"; key?: string; empty: boolean }[] = [];
  private done = false;
  private sawUrls = false;

  /** The next value is the root's `urls`. */
  get expectsUrls(): boolean {
    const top = this.stack[0];
    return this.stack.length === 1 && top!.expect === "value" && top!.key === "urls";
  }

  token(type: number, value: unknown, out: BodyEvent[]): void {
    if (this.done) throw invalidBody("JSON (there is more after the document)");
    const top = this.stack.at(-1);
    if (top && top.kind === "object" && top.expect === "key") {
      if (type === T.STRING) {
        top.key = value as string;
        top.expect = "colon";
        return;
      }
      if (type === T.RIGHT_BRACE && top.empty) return this.close();
      throw invalidBody("JSON (an object member without a name)");
    }
    if (top?.expect === "colon") {
      if (type !== T.COLON) throw invalidBody("JSON (a member name without a colon)");
      top.expect = "value";
      return;
    }
    if (top?.expect === "next") {
      if (type === T.COMMA) {
        top.expect = top.kind === "object" ? "key" : "value";
        top.empty = false;
        return;
      }
      if ((type === T.RIGHT_BRACE && top.kind === "object") || (type === T.RIGHT_BRACKET && top.kind === "array")) return this.close();
      throw invalidBody("JSON (a missing comma or bracket)");
    }
    if (top?.kind === "array" && type === T.RIGHT_BRACKET && top.empty) return this.close();
    this.value(type, value, out);
  }

  /** A value where one is expected: what it means depends on where it is. */
  private value(type: number, value: unknown, out: BodyEvent[]): void {
    const depth = this.stack.length;
    const parent = this.stack.at(-1);
    const rootMember = depth === 1 ? parent!.key : undefined;
    const inUrlsArray = depth === 2 && this.stack[0]!.key === "urls" && parent!.kind === "array";
    if (depth === 0 && type !== T.LEFT_BRACE) throw invalidBody('JSON of the form {"urls": [...]}');
    if (inUrlsArray && type !== T.STRING) throw invalidBody('JSON whose "urls" holds strings only');
    if (rootMember === "urls" && type !== T.STRING && type !== T.LEFT_BRACKET) throw invalidBody('JSON whose "urls" is a list of URLs or one string of lines');
    if (rootMember === "apikey" && type !== T.STRING) throw invalidBody('JSON whose "apikey" is a string');
    if (type === T.LEFT_BRACE || type === T.LEFT_BRACKET) {
      if (depth >= MAX_JSON_DEPTH) throw invalidBody(`JSON nested at most ${MAX_JSON_DEPTH} levels deep`);
      if (rootMember === "urls") this.sawUrls = true;
      this.stack.push({ kind: type === T.LEFT_BRACE ? "object" : "array", expect: type === T.LEFT_BRACE ? "key" : "value", empty: true });
      return;
    }
    if (type === T.RIGHT_BRACE || type === T.RIGHT_BRACKET || type === T.COLON || type === T.COMMA) throw invalidBody("JSON (a misplaced punctuation mark)");
    if (inUrlsArray) out.push({ kind: "line", value: value as string });
    if (rootMember === "urls") {
      this.sawUrls = true;
      out.push({ kind: "text", value: value as string });
    }
    if (rootMember === "apikey") out.push({ kind: "apikey", value: value as string });
    this.completed();
  }

  private close(): void {
    this.stack.pop();
    this.completed();
  }

  private completed(): void {
    const top = this.stack.at(-1);
    if (top) top.expect = "next";
    else this.done = true;
  }

  end(): void {
    if (!this.done) throw invalidBody("JSON (the document is incomplete)");
    if (!this.sawUrls) throw invalidBody('JSON with a "urls" member');
  }
}
