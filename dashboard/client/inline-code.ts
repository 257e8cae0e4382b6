/** A piece of a one-line text: plain, or code (between backticks in the source). */
export interface TextPiece {
  code: boolean;
  text: string;
}

/**
 * Splits a description into plain text and `code` spans, as Markdown's inline code does (a run of N
 * backticks ends at the next run of exactly N; an unmatched run is text). Renders as React text nodes and
 * `<code>` elements, so nothing in it is ever read as HTML.
 */
export function inlineCode(source: string): TextPiece[] {
  const pieces: TextPiece[] = [];
  const push = (code: boolean, text: string) => {
    if (text === "") return;
    const last = pieces.at(-1);
    if (last && !last.code && !code) last.text += text;
    else pieces.push({ code, text });
  };
  let at = 0;
  while (at < source.length) {
    const open = source.indexOf("`", at);
    if (open === -1) break;
    let ticks = open;
    while (source[ticks] === "`") ticks++;
    const fence = source.slice(open, ticks);
    const close = closingRun(source, ticks, fence.length);
    if (close === -1) {
      // No closing run of the same length: the backticks are plain text.
      push(false, source.slice(at, ticks));
      at = ticks;
      continue;
    }
    push(false, source.slice(at, open));
    push(true, trimOneSpace(source.slice(ticks, close)));
    at = close + fence.length;
  }
  push(false, source.slice(at));
  return pieces;
}

/** Where the next run of exactly `length` backticks at or after `from` starts, or -1. */
function closingRun(source: string, from: number, length: number): number {
  let at = from;
  while (at < source.length) {
    const start = source.indexOf("`", at);
    if (start === -1) return -1;
    let end = start;
    while (source[end] === "`") end++;
    if (end - start === length) return start;
    at = end;
  }
  return -1;
}

/** `` ` `x` ` `` shows `` `x` ``: one space on each side is padding, when both are there and the code is not all spaces. */
function trimOneSpace(code: string): string {
  if (code.length >= 2 && code.startsWith(" ") && code.endsWith(" ") && code.trim() !== "") return code.slice(1, -1);
  return code;
}
