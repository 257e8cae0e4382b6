import { LRUCache } from "lru-cache";
import type { ObservedValues } from "../../lib/history/observed.ts";
import type { HistoryStore } from "../../lib/store/history.ts";
import { coalesced } from "../../lib/store/per-tick.ts";

const REMEMBERED = 100_000;
/** Under load, observations are written at most this often: each write is a few statements and a commit. */
const WRITE_GAP_MS = 8;

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

  /** Observations arriving while earlier ones are written go together in the next write (see coalesced), WRITE_GAP_MS apart. */
  readonly observe: (url: string, at: number, values: ObservedValues) => Promise<void> = (() => {
    const write = coalesced(async (batch: { url: string; at: number; values: ObservedValues }[]) => {
      const ids = await this.idsOf(batch.map(({ url }) => url));
      await this.history.record(batch.map(({ url, at, values }) => ({ urlId: ids.get(url)!, at, values })));
      for (const { url, at, values } of batch) this.listener?.(ids.get(url)!, url, at, values);
      return batch.map(() => undefined);
    }, WRITE_GAP_MS);
    return (url, at, values) => write({ url, at, values });
  })();

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
