import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { expect } from "vitest";
import { ImportError } from "../../service/imports/import-error.ts";

export type Route = (request: IncomingMessage, response: ServerResponse) => void;

export interface TestServer {
  /** `http://host:port` + path. */
  url(path: string): string;
  port: number;
  /** Every path requested, in order. */
  hits: string[];
  /** The User-Agent and Accept headers of the last request. */
  lastHeaders: IncomingMessage["headers"];
  close(): Promise<void>;
}

/** An HTTP server for tests answering `routes` by path (404 elsewhere). */
export async function startTestServer(routes: Record<string, Route>, host = "127.0.0.1"): Promise<TestServer> {
  const hits: string[] = [];
  const state = { lastHeaders: {} as IncomingMessage["headers"] };
  const server = createServer((request, response) => {
    const path = request.url ?? "/";
    hits.push(path);
    state.lastHeaders = request.headers;
    const route = routes[path];
    if (route) route(request, response);
    else response.writeHead(404).end("not here");
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://${host}:${port}${path}`,
    port,
    hits,
    get lastHeaders() {
      return state.lastHeaders;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers an XML document (gzipped with `Content-Encoding: gzip` when `encoding` says so). */
export const xml =
  (body: string | Buffer, options: { type?: string; encoding?: "gzip"; status?: number } = {}): Route =>
  (_request, response) => {
    const bytes = options.encoding === "gzip" ? gzipSync(body) : body;
    response.writeHead(options.status ?? 200, {
      "content-type": options.type ?? "application/xml",
      ...(options.encoding ? { "content-encoding": options.encoding } : {}),
    });
    response.end(bytes);
  };

export const redirect =
  (location: string, status = 302): Route =>
  (_request, response) => {
    response.writeHead(status, { location }).end();
  };

export const urlset = (urls: readonly string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.map((u) => `  <url><loc>${u}</loc></url>`).join("\n")}\n</urlset>\n`;

export const sitemapIndex = (urls: readonly string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.map((u) => `  <sitemap><loc>${u}</loc></sitemap>`).join("\n")}\n</sitemapindex>\n`;

/** The ImportError a promise rejects with; its message must hold every fragment and no stack. */
export async function importError(promise: Promise<unknown>, ...fragments: string[]): Promise<ImportError> {
  const error = await promise.then(
    () => expect.fail("expected an ImportError"),
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ImportError);
  const importFailure = error as ImportError;
  expect(importFailure.code).toBe("import_failed");
  expect(importFailure.message).not.toMatch(/\n\s+at /);
  for (const fragment of fragments) expect(importFailure.message).toContain(fragment);
  return importFailure;
}
