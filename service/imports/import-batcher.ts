import type { AccountContext } from "../../lib/store/accounts.ts";
import { noneNotAdded, type ImportProgress } from "../../lib/store/imports.ts";
import { trackUrls, type TrackTally } from "../tracking/add-tracked.ts";
import type { FoundUrls } from "./found-urls.ts";
import { ImportStopped } from "./import-error.ts";
import type { ImportDeps } from "./run-import.ts";

/** URLs added at a time: what an import holds… */
export const IMPORT_BATCH = 500;
/** …or what came in this long, so a slow document's progress shows and a cancel is heard. */
const FLUSH_MS = 1_000;

/**
 * The URLs an import's readers find, added a batch at a time as they arrive (so an import holds one batch,
 * whatever the size of what it reads): within the account's whitelist (URLs off it are skipped), free slots and
 * today's quota. After each batch the run's progress is written; an import cancelled meanwhile stops there, and
 * so does one with no slot or no quota left (nothing more could be added).
 */
export class ImportBatcher implements FoundUrls {
  private pending: string[] = [];
  private readonly progress: ImportProgress = { urlsFound: 0, added: 0, notAdded: noneNotAdded(), files: 0 };
  /** An entry past `maxUrls` was found: reading stops at the next flush. */
  private overUrlLimit = false;
  private flushedAt: number;

  constructor(
    private readonly deps: ImportDeps,
    private readonly account: AccountContext,
    private readonly run: { id: string; token: string },
    private readonly maxUrls: number,
  ) {
    this.flushedAt = deps.now();
  }

  /** What the run did so far. */
  get done(): ImportProgress {
    return { ...this.progress, notAdded: { ...this.progress.notAdded } };
  }

  fileBegun(files: number): void {
    this.progress.files = files;
  }

  add(url: string): void {
    if (this.take()) this.pending.push(url);
  }

  tooLong(): void {
    if (this.take()) this.progress.notAdded.too_long++;
  }

  async flush(): Promise<void> {
    if (this.pending.length >= IMPORT_BATCH || this.overUrlLimit || this.deps.now() - this.flushedAt >= FLUSH_MS) await this.addPending();
  }

  /** Adds what is pending and records the progress; throws ImportStopped when the import cannot go on. */
  async addPending(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    this.flushedAt = this.deps.now();
    const tally = batch.length > 0 ? await trackUrls(this.deps, this.account, batch, { onLimit: "add_what_fits", offWhitelist: "skip" }) : null;
    if (tally) this.count(tally);
    if (!(await this.deps.store.imports.progress(this.run.id, this.run.token, this.done, this.deps.now()))) throw new ImportStopped("cancelled");
    // No slot or no quota left: nothing more could be added.
    if (tally && tally.over_limit > 0) throw new ImportStopped("tracked_limit");
    if (tally && tally.over_quota > 0) throw new ImportStopped("quota");
    if (this.overUrlLimit) throw new ImportStopped("url_limit");
  }

  /** Counts one entry read; false past `maxUrls` (it is not counted, and reading stops). */
  private take(): boolean {
    if (this.progress.urlsFound >= this.maxUrls) {
      this.overUrlLimit = true;
      return false;
    }
    this.progress.urlsFound++;
    return true;
  }

  private count(tally: TrackTally): void {
    this.progress.added += tally.added;
    const notAdded = this.progress.notAdded;
    notAdded.already_tracked += tally.already_tracked;
    notAdded.invalid += tally.invalid;
    notAdded.not_whitelisted += tally.not_whitelisted;
    notAdded.over_limit += tally.over_limit;
    notAdded.over_quota += tally.over_quota;
  }
}
