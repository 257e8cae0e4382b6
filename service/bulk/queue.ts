import { Job, Queue } from "bullmq";
import type { Redis } from "ioredis";
import { BULK_QUEUE, bullPrefix, queueJobId } from "../../lib/redis/account-keys.ts";
import type { BulkStore, QueuedBulkUrl } from "../../lib/store/bulk.ts";

export type BulkUrlJobData = QueuedBulkUrl;

const PAGE = 1000;
/** BullMQ's largest priority; a URL's priority is its place in its job (see enqueue). */
const MAX_PRIORITY = 2_097_151;

/**
 * Hands bulk URLs to the workers through BullMQ, one BullMQ job per URL (BULK_QUEUE), so a URL is the unit of
 * locking and recovery. The database stays the record of what is queued: this
 * only makes sure every queued URL has a live BullMQ job, which the API does when a job is submitted and
 * the workers do again for any job that stops making progress (a submission whose enqueue failed, a Redis
 * that lost its data, URLs delayed for a quota that has since been raised).
 */
export class BulkQueue {
  readonly queue: Queue<BulkUrlJobData>;

  constructor(
    connection: Redis,
    prefix: string,
    private readonly bulk: BulkStore,
  ) {
    this.queue = new Queue<BulkUrlJobData>(BULK_QUEUE, {
      connection,
      prefix: bullPrefix(prefix),
      defaultJobOptions: {
        // Results live in the database; a failed URL stays queued there and is offered again (see ensureQueued).
        removeOnComplete: true,
        removeOnFail: { age: 24 * 3600 },
        attempts: 8,
        backoff: { type: "exponential", delay: 1000 },
      },
    });
    // BullMQ reconnects on its own; an unhandled 'error' event would end the process.
    this.queue.on("error", () => {});
  }

  /**
   * Adds a new job's URLs, as stored. Priority is the URL's place among them: every job's first URLs come
   * before any job's later ones, so jobs are served round-robin and a small job does not wait behind a big one.
   */
  async enqueue(urls: readonly QueuedBulkUrl[]): Promise<void> {
    for (let start = 0; start < urls.length; start += PAGE) {
      await this.add(urls.slice(start, start + PAGE).map((url, i) => ({ url, place: start + i + 1 })));
    }
  }

  /**
   * Makes sure every queued URL of the job can be picked up: adds those BullMQ does not have (at their
   * round-robin places), promotes those delayed (their account was paused, and is not any more) and
   * retries those that failed. Whether anything needed doing.
   */
  async ensureQueued(job: { id: string; accountId: string }): Promise<boolean> {
    let fixed = false;
    await this.eachPage(job, async (urls, firstPlace) => {
      const states = await Promise.all(urls.map((url) => this.queue.getJobState(queueJobId(url.id))));
      const missing = urls.flatMap((url, i) => (states[i] === "unknown" ? [{ url, place: firstPlace + i }] : []));
      await Promise.all(
        urls.map(async (url, i) => {
          if (states[i] !== "delayed" && states[i] !== "failed") return;
          const found = await Job.fromId(this.queue, queueJobId(url.id));
          if (states[i] === "delayed") await found?.promote();
          else await found?.retry();
        }),
      );
      if (missing.length > 0) await this.add(missing);
      fixed ||= missing.length > 0 || states.some((state) => state === "delayed" || state === "failed");
    });
    return fixed;
  }

  /** Adds URLs at their places in their job; a URL BullMQ already has is left as it is. */
  private async add(items: { url: QueuedBulkUrl; place: number }[]): Promise<void> {
    await this.queue.addBulk(
      items.map(({ url, place }) => ({
        name: "count",
        data: url,
        opts: { jobId: queueJobId(url.id), priority: Math.min(MAX_PRIORITY, place) },
      })),
    );
  }

  /** The job's queued URLs a page at a time, with the place (from 1) of each page's first URL. */
  private async eachPage(job: { id: string; accountId: string }, visit: (urls: QueuedBulkUrl[], firstPlace: number) => Promise<void>) {
    let afterId = 0;
    let place = 1;
    for (;;) {
      const urls = await this.bulk.queued(job, afterId, PAGE);
      if (urls.length === 0) return;
      await visit(urls, place);
      place += urls.length;
      afterId = urls.at(-1)!.id;
    }
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}
