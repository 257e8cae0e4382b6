import type { IncomingMessage } from "node:http";
import type { RequestLogRow, RequestLogStore } from "../../lib/store/requests.ts";
import { takeAttribution } from "./attribution.ts";
import { requestId } from "./request-id.ts";
import { cut, ipPrefix, loggedTarget, loggedUrl, MAX_USER_AGENT_LENGTH } from "./row-fields.ts";
import { log } from "../../lib/log/log.ts";

/** At most one insert per this many milliseconds per process. */
export const REQUEST_LOG_FLUSH_MS = 100;
/** Rows waiting beyond this are dropped (and counted): a database that cannot keep up must not grow the heap. */
export const REQUEST_LOG_MAX_QUEUE = 10_000;

/** How the writer waits: real timers, or a test's. */
export interface Timers {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const socketAddress = (req: IncomingMessage) => req.socket.remoteAddress ?? "";

const realTimers: Timers = {
  set: (run, ms) => setTimeout(run, ms).unref(),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface RequestLogOptions {
  now: () => number;
  /** The client's address (TRUSTED_PROXIES: see lib/security/client-ip.ts); the socket's when not given. */
  clientAddress?: (req: IncomingMessage) => string;
  flushMs?: number;
  maxQueue?: number;
  timers?: Timers;
}

/**
 * The request log's writer: rows wait in memory and are inserted together, at most one insert per
 * REQUEST_LOG_FLUSH_MS and never two at once. Recording a request never waits and never throws; past
 * REQUEST_LOG_MAX_QUEUE waiting rows a request is dropped and counted instead. A failed insert loses its
 * rows (counted too): the log is for debugging, and retrying would hold memory while the database is away.
 */
export class RequestLog {
  private queue: RequestLogRow[] = [];
  private timer: unknown = null;
  private writing: Promise<void> | null = null;
  private lastInsertAt = -Infinity;
  private stopped = false;
  private droppedReported = 0;
  private readonly flushMs: number;
  private readonly maxQueue: number;
  private readonly timers: Timers;
  private readonly clientAddress: (req: IncomingMessage) => string;
  /** Rows dropped because the queue was full. */
  dropped = 0;
  /** Rows lost to failed inserts. */
  failed = 0;

  constructor(
    private readonly store: Pick<RequestLogStore, "insert">,
    private readonly options: RequestLogOptions,
  ) {
    this.flushMs = options.flushMs ?? REQUEST_LOG_FLUSH_MS;
    this.maxQueue = options.maxQueue ?? REQUEST_LOG_MAX_QUEUE;
    this.timers = options.timers ?? realTimers;
    this.clientAddress = options.clientAddress ?? socketAddress;
  }

  /** Rows waiting to be inserted. */
  get waiting(): number {
    return this.queue.length;
  }

  /**
   * `req` was answered with `status`, `durationMs` after it arrived: its row is queued when a key named its
   * account (see attribution.ts). The raw target and address are turned into the row's fields at insert time,
   * off the request's path.
   */
  record(req: IncomingMessage, status: number, durationMs: number): void {
    const row = takeAttribution(req);
    if (row === null || this.stopped) return;
    if (this.queue.length >= this.maxQueue) {
      this.dropped++;
      return;
    }
    row.status = status;
    row.durationMs = durationMs < 0 ? 0 : Math.round(durationMs);
    row.time = this.options.now() - row.durationMs;
    row.method = req.method ?? "GET";
    row.path = req.url ?? "/";
    row.ip = this.clientAddress(req);
    row.userAgent = req.headers["user-agent"] ?? null;
    this.queue.push(row);
    if (this.timer === null && this.writing === null) this.schedule();
  }

  private schedule(): void {
    const wait = Math.max(0, this.lastInsertAt + this.flushMs - this.options.now());
    this.timer = this.timers.set(() => {
      this.timer = null;
      void this.write();
    }, wait);
  }

  private async write(): Promise<void> {
    if (this.dropped > this.droppedReported) {
      log.warn({ event: "request_log_dropped", dropped: this.dropped - this.droppedReported, max_queue: this.maxQueue }, "requests not logged: too many waiting");
      this.droppedReported = this.dropped;
    }
    const batch = this.queue;
    if (batch.length === 0) return;
    this.queue = [];
    this.lastInsertAt = this.options.now();
    this.writing = this.store.insert(finishBatch(batch)).catch((error: unknown) => {
      this.failed += batch.length;
      // The message only: a driver's error may quote the statement's values.
      log.error({ event: "request_log_write_failed", rows: batch.length, err: error });
    });
    await this.writing;
    this.writing = null;
    if (this.queue.length > 0 && this.timer === null && !this.stopped) this.schedule();
  }

  /** Writes what waits (after an insert in progress), then records nothing more. Call once requests have drained. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) this.timers.clear(this.timer);
    this.timer = null;
    await this.writing;
    await this.write();
  }
}

/**
 * Turns queued rows' raw target, address and agent into their stored form: key-free, prefixed, bounded; and
 * gives each its id from its time. A batch repeats itself (the same popular URL, the same clients), so each
 * distinct target and address is worked out once per batch.
 */
function finishBatch(rows: RequestLogRow[]): RequestLogRow[] {
  const targets = new Map<string, { path: string; query: string; url: string | null }>();
  const networks = new Map<string, string>();
  for (const row of rows) {
    let target = targets.get(row.path);
    if (target === undefined) {
      const { path, query } = loggedTarget(row.path);
      target = { path, query, url: loggedUrl(query) };
      targets.set(row.path, target);
    }
    let network = networks.get(row.ip);
    if (network === undefined) networks.set(row.ip, (network = ipPrefix(row.ip)));
    row.id = requestId(row.time);
    row.path = target.path;
    row.query = target.query;
    row.url = target.url;
    row.ip = network;
    if (row.userAgent !== null && row.userAgent.length > MAX_USER_AGENT_LENGTH) row.userAgent = cut(row.userAgent, MAX_USER_AGENT_LENGTH);
  }
  return rows;
}
