import { Readable, pipeline } from "node:stream";
import { createGunzip } from "node:zlib";

/**
 * Gzip is recognised by its first two bytes, whatever the name or Content-Encoding say: a `.gz` URL and
 * `Content-Encoding: gzip` both mean the body starts with them, and servers that mislabel a plain document
 * are still read. Two layers are unwrapped: a `.gz` file sent with `Content-Encoding: gzip` is gzipped twice.
 */
export async function* gunzipped(source: AsyncIterable<Buffer>, layers = 2): AsyncGenerator<Buffer> {
  const iterator = source[Symbol.asyncIterator]();
  let head = Buffer.alloc(0);
  while (head.length < 2) {
    const next = await iterator.next();
    if (next.done) {
      if (head.length > 0) yield head;
      return;
    }
    head = Buffer.concat([head, next.value]);
  }
  const whole = prepend(head, iterator);
  if (layers === 0 || head[0] !== 0x1f || head[1] !== 0x8b) {
    yield* whole;
    return;
  }
  const gunzip = createGunzip();
  // Errors reach the reader through `gunzip`, which pipeline destroys with them.
  pipeline(Readable.from(whole), gunzip, () => {});
  yield* gunzipped(gunzip, layers - 1);
}

async function* prepend(head: Buffer, rest: AsyncIterator<Buffer>): AsyncGenerator<Buffer> {
  try {
    yield head;
    for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
  } finally {
    await rest.return?.();
  }
}

/** Passes the chunks on until more than `maxBytes` have come, then throws `tooLarge()` without reading on. */
export function limited(source: AsyncIterable<Buffer>, maxBytes: number, tooLarge: () => Error): AsyncGenerator<Buffer> {
  let total = 0;
  return counted(source, (bytes) => (total += bytes) <= maxBytes, tooLarge);
}

/** Passes the chunks on while `take(chunk.length)` agrees, then throws `over()` without reading on. */
export async function* counted(source: AsyncIterable<Buffer>, take: (bytes: number) => boolean, over: () => Error): AsyncGenerator<Buffer> {
  for await (const chunk of source) {
    if (!take(chunk.length)) throw over();
    yield chunk;
  }
}
