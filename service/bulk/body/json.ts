import { Tokenizer } from "@streamparser/json";
import { ApiError } from "../../http/errors.ts";
import { type BodyEvent, type BodyParser, invalidBody } from "./parser.ts";

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
export function jsonParser(): BodyParser {
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
