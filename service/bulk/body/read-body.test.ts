import { describe, expect, it } from "vitest";
import { ApiError } from "../../http/errors.ts";
import type { BodyEvent } from "./parser.ts";
import { bulkBodyEvents } from "./read-body.ts";

/** The body as chunks of the given sizes (cycled), as a network would cut it. */
async function* stream(body: Uint8Array, sizes: number[]): AsyncGenerator<Uint8Array> {
  for (let at = 0, i = 0; at < body.length; i++) {
    const size = sizes[i % sizes.length]!;
    yield body.subarray(at, at + size);
    at += size;
  }
}

async function read(body: string | Uint8Array, type: string, sizes = [1 << 20], maxBytes = 1 << 24): Promise<{ lines: string[]; keys: string[] }> {
  const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
  const events: BodyEvent[] = [];
  for await (const batch of bulkBodyEvents(stream(bytes, sizes), type, maxBytes)) events.push(...batch);
  return {
    lines: events.filter((e) => e.kind === "line").map((e) => e.value.trim()).filter(Boolean),
    keys: events.filter((e) => e.kind === "apikey").map((e) => e.value),
  };
}

/** Every way of cutting the body into chunks of 1 to 7 bytes reads the same as the body whole. */
async function expectSameWhateverTheChunks(body: string | Uint8Array, type: string, expected: { lines: string[]; keys: string[] }) {
  expect(await read(body, type)).toEqual(expected);
  for (const sizes of [[1], [2], [3], [5, 1, 7], [7, 2]]) expect(await read(body, type, sizes), `chunks of ${sizes}`).toEqual(expected);
}

const A = "https://a.com/x?q=1&r=%C3%A9";
const B = "https://bücher.de/ü path";
const C = "http://c.com/";

describe("bulk bodies read as they arrive", () => {
  it("lines: LF, CRLF, lone CR, a byte-order mark, multi-byte characters split across chunks", async () => {
    await expectSameWhateverTheChunks(`\uFEFF${A}\r\n${B}\r${C}\n\n`, "text/plain", { lines: [A, B, C], keys: [] });
    await expectSameWhateverTheChunks(`${A}\n${B}`, "", { lines: [A, B], keys: [] });
  });

  it("urlencoded form: urls fields (also urls[] as PHP sends them) split at encoded line breaks, and the key", async () => {
    const form = new URLSearchParams([["apikey", "KEY 1+2"], ["urls", `${A}\n${B}\r\n`], ["other", "x&y"], ["urls[]", C]]).toString();
    await expectSameWhateverTheChunks(form, "application/x-www-form-urlencoded", { lines: [A, B, C], keys: ["KEY 1+2"] });
    // The key after the URLs, and lowercase escapes.
    const after = `urls=${encodeURIComponent(`${B}\n${C}`).toLowerCase()}&apiKey=K2`;
    await expectSameWhateverTheChunks(after, "application/x-www-form-urlencoded; charset=utf-8", { lines: [B, C], keys: ["K2"] });
  });

  it("urlencoded label on a plain list (curl --data-binary @file): read as lines, its URLs' own & and = kept", async () => {
    await expectSameWhateverTheChunks(`${A}\n${C}?urls=1&apikey=2\n`, "application/x-www-form-urlencoded", { lines: [A, `${C}?urls=1&apikey=2`], keys: [] });
    await expectSameWhateverTheChunks(`not a url\n${A}\n`, "application/x-www-form-urlencoded", { lines: ["not a url", A], keys: [] });
    // A CSV exported with its header: the first line is a name, but it ends at a line break, not at `=`.
    await expectSameWhateverTheChunks(`url\r\n${A}\r\n${C}\r\n`, "application/x-www-form-urlencoded", { lines: ["url", A, C], keys: [] });
    await expectSameWhateverTheChunks(`www.example.com\n${C}`, "application/x-www-form-urlencoded", { lines: ["www.example.com", C], keys: [] });
  });

  it("urlencoded raw bytes 0x80 to 0x9f (UTF-8 sent unencoded) are read as UTF-8, not as windows-1252", async () => {
    const url = "https://example.com/日€";
    await expectSameWhateverTheChunks(`urls=${url}`, "application/x-www-form-urlencoded", { lines: [url], keys: [] });
  });

  it("multipart: urls as a text field or as a file, the key as a field", async () => {
    for (const asFile of [false, true]) {
      const form = new FormData();
      form.append("apikey", "KEY");
      if (asFile) form.append("urls", new Blob([`${A}\r\n${B}\n`]), "urls.txt");
      else form.append("urls", `${A}\r\n${B}\n`);
      form.append("ignored", new Blob(["x".repeat(5000)]), "other.bin");
      const request = new Request("http://x/", { method: "POST", body: form });
      const bytes = new Uint8Array(await request.arrayBuffer());
      await expectSameWhateverTheChunks(bytes, request.headers.get("content-type")!, { lines: [A, B], keys: ["KEY"] });
    }
  });

  it("JSON: urls as a list or as one string of lines, the key, other members ignored", async () => {
    await expectSameWhateverTheChunks(JSON.stringify({ skip: { deep: [1, [2, { a: null }]] }, urls: [A, B, C], apikey: "K" }), "application/json", {
      lines: [A, B, C],
      keys: ["K"],
    });
    await expectSameWhateverTheChunks(JSON.stringify({ apikey: "K", urls: `${A}\n${B}\r\n${C}` }), "application/json", { lines: [A, B, C], keys: ["K"] });
    await expectSameWhateverTheChunks(JSON.stringify({ urls: [] }), "application/json", { lines: [], keys: [] });
  });

  it.each([
    ['{"urls": [1, 2]}', /strings only/],
    ['{"urls": {"a": 1}}', /list of URLs/],
    ['["https://a.com/"]', /"urls"/],
    ['{"apikey": 5, "urls": []}', /"apikey" is a string/],
    ['{"urls": ["https://a.com/"]', /incomplete/],
    ['{"urls" ["https://a.com/"]}', /JSON/],
    ['{"urls": ["a" "b"]}', /JSON/],
    ['{"urls": []}{}', /JSON/],
    ["{}", /"urls"/],
    ["", /JSON/],
    ["not json", /JSON/],
    [`{"x":${"[".repeat(100)}`, /nested at most 64 levels/],
  ])("JSON %s is invalid_body", async (body, message) => {
    const error = await read(body, "application/json").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe("invalid_body");
    expect((error as ApiError).message).toMatch(message);
  });

  describe("JSON whose one token, or white space, runs on is invalid_body once past 64 KiB, not gathered whole", () => {
    const MiB = 1 << 20;
    /** Reads until the error, counting the bytes taken from the stream by then. */
    async function readUntilRefused(body: string) {
      let taken = 0;
      const bytes = new TextEncoder().encode(body);
      const counted = async function* () {
        for await (const chunk of stream(bytes, [4096])) {
          taken += chunk.length;
          yield chunk;
        }
      };
      const error = await (async () => {
        for await (const batch of bulkBodyEvents(counted(), "application/json", 1 << 26)) batch.length = 0;
      })().catch((e: unknown) => e);
      return { error: error as ApiError, taken };
    }

    it.each([
      ["a number", `{"x": ${"1".repeat(MiB)}, "urls": []}`],
      ["a string of escapes", `{"x": "${"\\u0041".repeat(MiB / 6)}", "urls": []}`],
      ["a string of escaped backslashes", `{"x": "${"\\\\".repeat(MiB / 2)}", "urls": []}`],
      ["an apikey", `{"urls": [], "apikey": "${"a".repeat(MiB)}"}`],
      ["a member name", `{"${"k".repeat(MiB)}": 1, "urls": []}`],
      ["a URL in the list", `{"urls": ["https://a.com/${"a".repeat(MiB)}"]}`],
      ["white space", `{${" ".repeat(MiB)}"urls": []}`],
    ])("%s", async (_, body) => {
      const { error, taken } = await readUntilRefused(body);
      expect(error).toBeInstanceOf(ApiError);
      expect(error.code).toBe("invalid_body");
      expect(error.message).toMatch(/64 KiB/);
      expect(taken).toBeLessThan(96 * 1024);
    });

    it("except urls as one string of lines, up to 4 MiB", async () => {
      const lines = Array.from({ length: 50_000 }, (_, i) => `https://example.com/${i}`);
      const text = lines.join("\n");
      expect(text.length).toBeGreaterThan(MiB);
      expect((await read(JSON.stringify({ urls: text, apikey: "K" }), "application/json", [4096])).lines).toEqual(lines);
      const { error, taken } = await readUntilRefused(JSON.stringify({ urls: `${text}\n`.repeat(5) }));
      expect(error.code).toBe("invalid_body");
      expect(error.message).toMatch(/4 MiB/);
      expect(taken).toBeLessThan(4 * MiB + 96 * 1024);
    });
  });

  it("a plain body of nothing but line breaks makes no events at all", async () => {
    const events: BodyEvent[] = [];
    for await (const batch of bulkBodyEvents(stream(new Uint8Array(1 << 20).fill(13), [65536]), "text/plain", 1 << 24)) events.push(...batch);
    expect(events).toEqual([]);
  });

  it("a multipart body cut short, or without a boundary, is invalid_body", async () => {
    const form = new FormData();
    form.append("urls", `${A}\n`);
    const request = new Request("http://x/", { method: "POST", body: form });
    const bytes = new Uint8Array(await request.arrayBuffer());
    for (const [body, type] of [
      [bytes.subarray(0, bytes.length - 20), request.headers.get("content-type")!],
      [bytes, "multipart/form-data"],
    ] as const) {
      const error = await read(body, type).catch((e: unknown) => e);
      expect((error as ApiError).code).toBe("invalid_body");
    }
  });

  it("stops with body_too_large as soon as more than the limit arrived", async () => {
    const error = await read(`${A}\n`.repeat(1000), "text/plain", [100], 5000).catch((e: unknown) => e);
    expect((error as ApiError).code).toBe("body_too_large");
  });

  it("keeps no line longer than 16 KiB: a body with no line breaks is cut, not held", async () => {
    const { lines } = await read(`https://a.com/${"x".repeat(100_000)}\n${C}`, "text/plain", [4096]);
    expect(lines.map((l) => l.length)).toEqual([16 * 1024, C.length]);
    const form = await read(`urls=${"%41".repeat(100_000)}%0A${encodeURIComponent(C)}`, "application/x-www-form-urlencoded", [4096]);
    expect(form.lines.at(-1)).toBe(C);
    expect(form.lines[0]!.length).toBeLessThanOrEqual(16 * 1024);
  });
});
