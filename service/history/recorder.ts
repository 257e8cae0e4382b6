import { LRUCache } from "lru-cache";
import type { ObservedValues } from "../../lib/history/observed.ts";
import type { HistoryStore } from "../../lib/store/history.ts";

const REMEMBERED = 100_000;

/** Told of each observation once it is recorded (the tracked URL alerts); must return at once. */
export type ObservationListener = (urlId: number, url: string, at: number, values: ObservedValues) => void;

/**
 * Writes the count history: every fresh answer of the networks as an observation, and which account asked
 * about which URL (whose history it may then read). URL ids never change and an account's "asked" never
 * ends, so both are remembered: a repeated query of the same URL costs no database write.
 */
export class HistoryRecorder {
  private readonly ids = new LRUCache<string, number>({ max: REMEMBERED });
  private readonly noted = new LRUCache<string, true>({ max: REMEMBERED });

  constructor(
    private readonly history: HistoryStore,
    private readonly listener: ObservationListener | null = null,
  ) {}

  async idsOf(urls: readonly string[]): Promise<Map<string, number>> {
    const ids = new Map<string, number>();
    const unknown: string[] = [];
    for (const url of urls) {
      const id = this.ids.get(url);
      if (id === undefined) unknown.push(url);
      else ids.set(url, id);
    }
    if (unknown.length > 0) {
      for (const [url, id] of await this.history.idsOf(unknown)) {
        this.ids.set(url, id);
        ids.set(url, id);
      }
    }
    return ids;
  }

  readonly observe = async (url: string, at: number, values: ObservedValues): Promise<void> => {
    const id = (await this.idsOf([url])).get(url)!;
    await this.history.record(id, at, values);
    this.listener?.(id, url, at, values);
  };

  /**
   * One URL an account queried; null when it was noted before: the cached query's path then costs one
   * lookup and no promise.
   */
  noteQuery(accountId: string, url: string, at: number): Promise<void> | null {
    return this.noted.has(`${accountId} ${url}`) ? null : this.noteQueried(accountId, [url], at);
  }

  async noteQueried(accountId: string, urls: readonly string[], at: number): Promise<void> {
    const fresh = urls.filter((url) => !this.noted.has(`${accountId} ${url}`));
    if (fresh.length === 0) return;
    const ids = await this.idsOf(fresh);
    await this.history.noteQueried(accountId, [...ids.values()], at);
    for (const url of fresh) this.noted.set(`${accountId} ${url}`, true);
  }
}
