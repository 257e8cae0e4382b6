import { randomUUID } from "node:crypto";
import { PollingLoop } from "../tracking/polling-loop.ts";
import type { UrlImport } from "../../lib/store/imports.ts";
import { ImportStopped } from "./import-error.ts";
import { IMPORT_TIME_LIMIT_MS, runImport, type ImportDeps } from "./run-import.ts";
import { log } from "../../lib/log/log.ts";

/** Imports one worker runs at once (of different accounts: the store hands out one per account at a time). */
export const IMPORTS_PER_WORKER = 16;
/** Longer than an import may run: a lease that runs out means its worker died. */
const LEASE_MS = IMPORT_TIME_LIMIT_MS + 5 * 60_000;
/** How often running imports are looked at for a cancel (a document that sends nothing is stopped too). */
const CANCEL_CHECK_MS = 2_000;

/**
 * Runs queued imports (and feeds due again), several at once per worker process, each within its time limit.
 * Stopping gives the running ones back to the queue for another worker.
 */
export class ImportWorker {
  private readonly loop: PollingLoop;
  private readonly running = new Map<string, { stop: AbortController; done: Promise<void> }>();
  private readonly token = randomUUID();

  constructor(
    private readonly deps: ImportDeps,
    pollMs: number,
  ) {
    this.loop = new PollingLoop("import", pollMs, () => this.round());
  }

  start(): void {
    this.loop.start();
  }

  notify(): void {
    this.loop.notify();
  }

  /** Takes no new import and hands the running ones back (they run again from the start elsewhere). */
  async stop(): Promise<void> {
    await this.loop.stop();
    for (const run of this.running.values()) run.stop.abort(new ImportStopped("shutdown"));
    await Promise.all([...this.running.values()].map((run) => run.done));
  }

  /** Starts what the free places allow; a run that ends wakes the loop for the next. */
  private async round(): Promise<boolean> {
    while (this.running.size < IMPORTS_PER_WORKER) {
      const entry = await this.deps.store.imports.claim(this.deps.now(), LEASE_MS, this.token);
      if (!entry) break;
      const stop = new AbortController();
      const limit = setTimeout(() => stop.abort(new ImportStopped("time_limit")), IMPORT_TIME_LIMIT_MS);
      const watch = setInterval(() => void this.stopIfCancelled(entry, stop), CANCEL_CHECK_MS);
      const done = (async () => {
        try {
          const outcome = await runImport(this.deps, entry, this.token, stop.signal);
          if (outcome) await this.deps.store.imports.finish(entry.id, this.token, outcome, this.deps.now());
          else await this.deps.store.imports.release(entry.id, this.token, this.deps.now());
        } catch (error) {
          // Left running: its lease runs out and it is tried again, up to its attempts.
          log.error({ event: "import_failed", import_id: entry.id, err: error });
        } finally {
          clearTimeout(limit);
          clearInterval(watch);
          this.running.delete(entry.id);
          this.loop.notify();
        }
      })();
      this.running.set(entry.id, { stop, done });
    }
    return false;
  }

  private async stopIfCancelled(entry: UrlImport, stop: AbortController): Promise<void> {
    try {
      if ((await this.deps.store.imports.get(entry.accountId, entry.id))?.status === "cancelled") stop.abort(new ImportStopped("cancelled"));
    } catch (error) {
      log.error({ event: "import_cancel_check_failed", import_id: entry.id, err: error });
    }
  }
}
