import type { AccountReads } from "./accounts.ts";
import type { BulkStore } from "./bulk.ts";
import type { KnownCountStore } from "./counts.ts";
import type { HistoryStore } from "./history.ts";
import type { ImportStore } from "./imports.ts";
import type { RequestLogStore } from "./requests.ts";
import type { TrackedStore } from "./tracked.ts";
import type { UsageStore } from "./usage.ts";

/**
 * The service's storage by concern, as the hot paths need it: prepared statements, no ORM round-trips. Each
 * concern owns its tables; methods are async so a networked database implements the same interface.
 */
export interface Store {
  accounts: AccountReads;
  usage: UsageStore;
  bulk: BulkStore;
  counts: KnownCountStore;
  history: HistoryStore;
  tracked: TrackedStore;
  imports: ImportStore;
  requests: RequestLogStore;
  /** Throws when the database cannot answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
