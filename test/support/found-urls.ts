import type { FoundUrls } from "../../service/imports/found-urls.ts";

/** A FoundUrls that keeps what the readers hand it, in order, as an import would add it. */
export function collectUrls(): FoundUrls & { urls: string[]; tooLongCount: number; flushes: number } {
  const collected = {
    urls: [] as string[],
    tooLongCount: 0,
    flushes: 0,
    add(url: string) {
      collected.urls.push(url);
    },
    tooLong() {
      collected.tooLongCount++;
    },
    async flush() {
      collected.flushes++;
    },
  };
  return collected;
}
