import Busboy, { type BusboyInstance } from "@fastify/busboy";
import { LineSplitter } from "./lines.ts";
import { type BodyEvent, type BodyParser, invalidBody, isKeyField, isUrlsField, MAX_KEY } from "./parser.ts";

/** `multipart/form-data`: a `urls` part (text or file) is streamed line by line; `apikey` is a small field. */
export function multipartParser(contentType: string): BodyParser {
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
