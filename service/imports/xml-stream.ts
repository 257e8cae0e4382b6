import sax from "sax";
import { ImportError } from "./import-error.ts";

/** What a sitemap or feed reader is told as the parser walks the document. */
export interface XmlReader {
  /** An element opened. `path` holds the local names of it and its ancestors, root first. */
  open(name: string, attributes: Readonly<Record<string, string>>, path: readonly string[]): void;
  /**
   * Character data (text or CDATA, entities decoded) inside the innermost open element, in pieces of at most
   * twice MAX_XML_BUFFER characters: a long text node arrives in several calls and is never held whole.
   */
  text(text: string): void;
  /** An element closed; `path` still ends with it. */
  close(name: string, path: readonly string[]): void;
  /** Awaited after each chunk of the document is parsed: the reader hands on what it found. */
  afterChunk(): Promise<void>;
}

/** Far deeper than any sitemap or feed: deeper nesting is an attack on the readers, not a document. */
const MAX_DEPTH = 100;
/**
 * An element's attributes, in number and in characters all told (sitemaps and feeds carry a few namespace
 * declarations): sax bounds each value, not how many there are, and holds them all until the tag closes.
 */
const MAX_ATTRIBUTES = 64;
const MAX_ATTRIBUTE_CHARS = 64 * 1024;

/**
 * sax's bound on each of its buffers (its MAX_BUFFER_LENGTH default): text and CDATA past it are handed on in
 * pieces; a comment, tag name, attribute value or DOCTYPE past it is an error. sax checks after a write once
 * this many characters came since its last check, so with writes no longer than this no buffer passes twice it.
 */
export const MAX_XML_BUFFER = 64 * 1024;

/** Readers match local names: `<sm:loc>`, `<rdf:RDF>` and `<loc>` are all read alike, whatever the namespace. */
const localName = (qualified: string) => qualified.slice(qualified.indexOf(":") + 1);

/** Options sax takes beyond what its types list: only XML's five entities, never HTML's or a DOCTYPE's. */
const OPTIONS = { xmlns: false, position: true, strictEntities: true } as sax.SAXOptions;

/**
 * Streams a document through sax (strict: well-formedness is checked) into `reader`. Namespaces are not
 * checked, so a feed using an undeclared prefix (common) still reads. Entities a DOCTYPE defines are never
 * expanded (a reference to one is an error) and nothing external is fetched. Memory stays bounded whatever the
 * document: every buffer is held to MAX_XML_BUFFER characters.
 *
 * `subject` begins the messages: "The sitemap at https://…".
 */
export async function readXml(chunks: AsyncIterable<Buffer>, reader: XmlReader, subject: string): Promise<void> {
  const parser = sax.parser(true, OPTIONS);
  const path: string[] = [];
  let attributes = 0;
  let attributeChars = 0;
  parser.onerror = (error) => {
    throw notWellFormed(subject, error.message);
  };
  parser.onopentagstart = () => {
    attributes = 0;
    attributeChars = 0;
  };
  parser.onattribute = ({ name, value }) => {
    attributes += 1;
    attributeChars += name.length + value.length;
    if (attributes > MAX_ATTRIBUTES || attributeChars > MAX_ATTRIBUTE_CHARS) {
      throw new ImportError(
        `${subject} has an element with more than ${MAX_ATTRIBUTES} attributes or ${MAX_ATTRIBUTE_CHARS.toLocaleString("en-US")} characters of them; sitemaps and feeds have a few.`,
      );
    }
  };
  parser.onopentag = (tag) => {
    if (path.length >= MAX_DEPTH) throw new ImportError(`${subject} nests elements more than ${MAX_DEPTH} deep; sitemaps and feeds need a handful.`);
    path.push(localName(tag.name));
    reader.open(path.at(-1)!, tag.attributes as Record<string, string>, path);
    // sax keeps each open element's tag until it closes: only its name is needed after this.
    tag.attributes = {};
  };
  parser.ontext = (text) => reader.text(text);
  parser.oncdata = (text) => reader.text(text);
  parser.onclosetag = () => {
    reader.close(path.at(-1)!, path);
    path.pop();
  };

  let empty = true;
  for await (const text of decoded(chunks, subject)) {
    empty &&= text === "";
    for (let at = 0; at < text.length; at += MAX_XML_BUFFER) parser.write(text.slice(at, at + MAX_XML_BUFFER));
    // Also lets other requests in between chunks: one already received is parsed without waiting for I/O.
    await reader.afterChunk();
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  if (empty) throw new ImportError(`${subject} is empty.`);
  parser.close();
}

/** What sax calls each of its buffers, in a user's words. */
const BUFFERS: Record<string, string> = {
  comment: "a comment",
  attribValue: "an attribute value",
  attribName: "an attribute name",
  tagName: "an element name",
  doctype: "a DOCTYPE",
  sgmlDecl: "a declaration",
  procInstName: "a processing instruction",
  procInstBody: "a processing instruction",
  entity: "an entity reference",
};

/** sax says "Unexpected close tag\nLine: 2\nColumn: 14\nChar: >" (line from 0); users read "line 3, column 14: unexpected close tag". */
function notWellFormed(subject: string, message: string): ImportError {
  const [what = message, ...rest] = message.split("\n");
  const over = /^Max buffer length exceeded: (\w+)$/.exec(what);
  if (over) {
    const name = BUFFERS[over[1]!] ?? "a part";
    return new ImportError(`${subject} has ${name} longer than ${MAX_XML_BUFFER.toLocaleString("en-US")} characters; sitemaps and feeds have none so long.`);
  }
  const line = /^Line: (\d+)$/.exec(rest.find((l) => l.startsWith("Line:")) ?? "")?.[1];
  const column = /^Column: (\d+)$/.exec(rest.find((l) => l.startsWith("Column:")) ?? "")?.[1];
  const detail = what.charAt(0).toLowerCase() + what.slice(1).replace(/\.$/, "");
  const where = line !== undefined && column !== undefined ? `line ${Number(line) + 1}, column ${column}: ` : "";
  return new ImportError(`${subject} is not well-formed XML (${where}${detail}).`);
}

/** How far into the document its XML declaration (and so its encoding) is looked for. */
const DECLARATION_WINDOW = 1024;

/**
 * Bytes to text in the document's encoding: a byte-order mark, else the XML declaration's `encoding`, else
 * UTF-8. Bytes invalid in it become U+FFFD rather than an error: a stray Latin-1 byte in a title is common and
 * harmless to the URLs. A byte-order mark is left out of the text.
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
