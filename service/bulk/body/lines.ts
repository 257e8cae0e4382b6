import { type BodyEvent, type BodyParser, MAX_LINE } from "./parser.ts";

/**
 * Text split into lines (LF, CRLF or CR). An over-long line is cut (it is invalid either way); empty lines are
 * passed over here (a run of line breaks is one split), where a body of nothing but line breaks would
 * otherwise make an event of every byte.
 */
export class LineSplitter {
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

export function linesParser(): BodyParser {
  const lines = new LineSplitter();
  return {
    push: (chunk, out) => lines.pushBytes(chunk, out),
    end: async (out) => lines.end(out),
  };
}
