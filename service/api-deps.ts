import type { CountService } from "./counts/count-service.ts";
import type { Authenticator } from "./http/auth.ts";
import type { QuotaClock } from "../lib/quota/clock.ts";
import type { QuotaCounter } from "./quota/counter.ts";
import type { RefusalCounter } from "./quota/refusals.ts";
import type { QueuedBulkUrl } from "../lib/store/bulk.ts";
import type { Store } from "../lib/store/store.ts";
import type { HistoryRecorder } from "./history/recorder.ts";
import type { NetworkHealthEntry } from "./networks/health.ts";
import type { AlertKit } from "../lib/alerts/open-alerts.ts";
import type { WebhookLimits } from "../lib/webhooks/webhook-limits.ts";
import type { ApiKeys } from "../lib/keys/api-keys.ts";
import type { SecurityNotices } from "../lib/accounts/security-notices.ts";
import type { AuditDeps } from "./audit/audit-service.ts";
import type { RequestLog } from "./requests/request-log.ts";

/** What the API's routes are built from; one instance per process. */
export interface ApiDeps {
  store: Store;
  auth: Authenticator;
  counts: CountService;
  clock: QuotaClock;
  quota: QuotaCounter;
  /** Count queries refused, per account, day and reason (written in batches). */
  refusals: RefusalCounter;
  /** Throws unless every backing service (database, and Redis when used) answers. */
  ping: () => Promise<void>;
  /** A bulk job's URLs were stored: hand them to the workers. Never throws (workers also find stored jobs themselves). */
  bulkSubmitted: (urls: readonly QueuedBulkUrl[]) => Promise<void>;
  limits: { maxBodyBytes: number; maxCustomTtlSeconds: number };
  /** Writes which URLs accounts asked about (and ids of URLs). */
  history: HistoryRecorder;
  /** URLs were tracked: the scheduler in this process (if any) looks for due URLs now. */
  trackedAdded: () => void;
  /** A sitemap or feed import was queued: the import worker in this process (if any) starts it now. */
  importQueued: () => void;
  /** Every network's state, calls and budget (GET /v2/networks). */
  networkHealth: () => Promise<NetworkHealthEntry[]>;
  /** Events, their webhook endpoints and deliveries, and what each account is mailed about. */
  alerts: AlertKit;
  /** WEBHOOK_ALLOW_PRIVATE_HOSTS: endpoints may be on loopback and private addresses. */
  allowPrivateWebhookHosts: boolean;
  /** Each account's webhook tests and retries per minute (shared through Redis when there is one). */
  webhookLimits: WebhookLimits;
  /** Events with webhook deliveries were stored: the delivery worker in this process (if any) looks now. */
  webhooksQueued: () => void;
  /** The key verbs (/v2/keys), and the notices a roll or revoke mails. */
  keys: { verbs: ApiKeys; notices: SecurityNotices };
  /** The audit log: GET /v2/audit reads it; changes made through the API record who made them. */
  audit: AuditDeps;
  /** Networks are the sandbox: every count answer says so. */
  sandbox: boolean;
  /** Writes a row per attributed API request (null: REQUEST_LOG=off). */
  requestLog: RequestLog | null;
}
