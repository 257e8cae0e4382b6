import type { CountService } from "./counts/count-service.ts";
import type { Authenticator } from "./http/auth.ts";
import type { QuotaClock } from "./quota/clock.ts";
import type { Store } from "./store/types.ts";

/** What the API's routes are built from; one instance per process. */
export interface ApiDeps {
  store: Store;
  auth: Authenticator;
  counts: CountService;
  clock: QuotaClock;
  /** Wakes the bulk worker when a job arrives. */
  notifyBulk: () => void;
  limits: { maxBodyBytes: number; maxCustomTtlSeconds: number };
  /** Networks are the sandbox: every count answer says so. */
  sandbox: boolean;
}
