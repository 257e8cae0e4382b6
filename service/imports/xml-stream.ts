import { SaxesParser } from "saxes";
import { ImportError } from "./import-error.ts";

/** What a sitemap or feed reader is told as the parser walks the document. */
export interface XmlReader {
  /** An element opened. `path` holds the local names of it and its ancestors, root first. */
  open(name: string, attributes: Readonly<Record<string, string>>, path: readonly string[]): void;
  /** Character data (text or CDATA, entities decoded) inside the innermost open element. */
  text(text: string): void;
  /** An element closed; `path` still ends with it. */
  close(name: string, path: readonly string[]): void;
  /** True once nothing more is wanted: the rest of the document is not read. */
  done(): boolean;
}

/** Far deeper than any sitemap or feed: deeper nesting is an attack on the readers, not a document. */
const MAX_DEPTH = 100;

/** Readers match local names: `<sm:loc>`, `<rdf:RDF>` and `<loc>` are all read alike, whatever the namespace. */
const localName = (qualified: string) => qualified.slice(qualified.indexOf(":") + 1);

/**
 * Streams a document through saxes into `reader`. Namespace checking is off so that a feed using an undeclared
 * prefix (common) still reads; everything else of well-formedness is checked. saxes knows only the five XML
 * entities and character references: a DOCTYPE's entity definitions are never expanded (a reference to one is
 * an "undefined entity" error) and nothing external is fetched.
 *
 * `subject` begins the messages: "The sitemap at https://…".
 */
export async function readXml(chunks: AsyncIterable<Buffer>, reader: XmlReader, subject: string): Promise<void> {
  const parser = new SaxesParser<{ xmlns: false; position: true }>({ xmlns: false, position: true });
  const path: string[] = [];
  parser.on("error", (error) => {
    throw notWellFormed(subject, error.message);
  });
  parser.on("opentag", (tag) => {
    if (path.length >= MAX_DEPTH) throw new ImportError(`${subject} nests elements more than ${MAX_DEPTH} deep; sitemaps and feeds need a handful.`);
    path.push(localName(tag.name));
    reader.open(path.at(-1)!, tag.attributes, path);
  });
  parser.on("text", (text) => reader.text(text));
  parser.on("cdata", (text) => reader.text(text));
  parser.on("closetag", () => {
    reader.close(path.at(-1)!, path);
    path.pop();
  });

  let empty = true;
  for await (const text of decoded(chunks, subject)) {
    empty &&= text === "";
    parser.write(text);
    if (reader.done()) return;
    // A chunk already received is parsed without waiting for I/O: let other requests in between chunks.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  if (empty) throw new ImportError(`${subject} is empty.`);
  parser.close();
}

/** saxes says "3:7: unclosed tag: urlset"; users read "line 3, column 7: unclosed tag: urlset". */
function notWellFormed(subject: string, message: string): ImportError {
  const positioned = /^(\d+):(\d+): (.*?)\.?$/s.exec(message);
  const detail = positioned ? `line ${positioned[1]}, column ${positioned[2]}: ${positioned[3]}` : message.replace(/\.$/, "");
  return new ImportError(`${subject} is not well-formed XML (${detail}).`);
}

/** How far into the document its XML declaration (and so its encoding) is looked for. */
const DECLARATION_WINDOW = 1024;

/**
 * Bytes to text in the document's encoding: a byte-order mark, else the XML declaration's `encoding`, else
 * UTF-8. Bytes invalid in it become U+FFFD rather than an error: a stray Latin-1 byte in a title is common and
 * harmless to the URLs.
 */
async function* decoded(chunks: AsyncIterable<Buffer>, subject: string): AsyncGenerator<string> {
  let decoder: TextDecoder | undefined;
  let head = Buffer.alloc(0);
  for await (const chunk of chunks) {
    if (decoder) {
      yield decoder.decode(chunk, { stream: true });
      continue;
    }
    head = Buffer.concat([head, chunk]);
    if (!encodingDecidable(head)) continue;
    decoder = decoderFor(head, subject);
    yield decoder.decode(head, { stream: true });
  }
  if (!decoder) {
    decoder = decoderFor(head, subject);
    yield decoder.decode(head, { stream: true });
  }
  yield decoder.decode();
}

function encodingDecidable(head: Buffer): boolean {
  if (head.length >= DECLARATION_WINDOW) return true;
  if (head.length < 5) return false;
  const start = head.toString("latin1", 0, 5);
  return start !== "<?xml" || head.includes("?>");
}

function decoderFor(head: Buffer, subject: string): TextDecoder {
  const encoding = encodingOf(head);
  try {
    return new TextDecoder(encoding);
  } catch {
    throw new ImportError(`${subject} declares the character encoding "${encoding}", which cannot be read.`);
  }
}

function encodingOf(head: Buffer): string {
  const [a, b, c, d] = head;
  if (a === 0xef && b === 0xbb && c === 0xbf) return "utf-8";
  if ((a === 0xfe && b === 0xff) || (a === 0x00 && b === 0x3c && c === 0x00 && d === 0x3f)) return "utf-16be";
  if ((a === 0xff && b === 0xfe) || (a === 0x3c && b === 0x00 && c === 0x3f && d === 0x00)) return "utf-16le";
  const declared = /^<\?xml\s[^>]*?encoding\s*=\s*["']([A-Za-z][\w.-]*)["']/.exec(head.toString("latin1", 0, DECLARATION_WINDOW))?.[1];
  // Bytes that spelled out the declaration one per character are not UTF-16, whatever it says.
  return declared && !/^utf-?16/i.test(declared) ? declared : "utf-8";
}
