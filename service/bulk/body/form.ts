import { LineSplitter } from "./lines.ts";
import { type BodyEvent, type BodyParser, isKeyField, isUrlsField, MAX_KEY, MAX_LINE } from "./parser.ts";

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
export function formParser(): BodyParser {
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
