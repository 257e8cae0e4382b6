import { Job, Queue } from "bullmq";
import type { Redis } from "ioredis";
import { BULK_QUEUE, bullPrefix, chunkJobId } from "../../lib/redis/account-keys.ts";
import type { BulkStore, QueuedBulkUrl } from "../../lib/store/bulk.ts";

/** A chunk of one bulk job's queued URLs (see BULK_CHUNK), in submission order. */
export interface BulkChunkJobData {
  jobId: string;
  accountId: string;
  requestId: string | null;
  urls: { id: number; countUrl: string }[];
}

const PAGE = 1000;
const CHUNKS_PER_ADD = 50;
/** BullMQ's largest priority; a chunk's priority is its first URL's place in its job (see enqueue). */
const MAX_PRIORITY = 2_097_151;

/** The chunk's URLs as the store hands them out. */
export function chunkUrls(chunk: BulkChunkJobData): QueuedBulkUrl[] {
  return chunk.urls.map((url) => ({ id: url.id, countUrl: url.countUrl, jobId: chunk.jobId, accountId: chunk.accountId, requestId: chunk.requestId }));
}

/**
 * Hands bulk URLs to the workers through BullMQ, one BullMQ job per chunk of a bulk job's URLs (BULK_QUEUE), so
 * a chunk is the unit of locking and recovery. The database stays the record of what is queued: this only
 * makes sure every queued URL is in a live chunk, which the API does when a job is submitted and the workers
 * do again for any job that stops making progress (a submission whose enqueue failed, a Redis that lost its
 * data, URLs delayed for a quota that has since been raised).
 */
export class BulkQueue {
  readonly queue: Queue<BulkChunkJobData>;

  constructor(
    connection: Redis,
    prefix: string,
    private readonly bulk: BulkStore,
  ) {
    this.queue = new Queue<BulkChunkJobData>(BULK_QUEUE, {
      connection,
      prefix: bullPrefix(prefix),
      defaultJobOptions: {
        // Results live in the database; a failed chunk stays queued there and is offered again (see ensureQueued).
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
   * Adds a new job's URLs, as stored. Priority is a chunk's place among them: every job's first chunks come
   * before any job's later ones, so jobs are served round-robin and a small job does not wait behind a big one.
   */
  async enqueue(urls: readonly QueuedBulkUrl[]): Promise<void> {
    const chunks = chunksOf(urls, 1);
    for (let start = 0; start < chunks.length; start += CHUNKS_PER_ADD) await this.add(chunks.slice(start, start + CHUNKS_PER_ADD));
  }

  /**
   * Makes sure every queued URL of the job can be picked up: adds the chunks BullMQ does not have (at their
   * round-robin places), promotes those delayed (their account was paused, and is not any more) and
   * retries those that failed. Whether anything needed doing.
   */
  async ensureQueued(job: { id: string; accountId: string }): Promise<boolean> {
    let fixed = false;
    await this.eachPage(job, async (urls, firstPlace) => {
      const chunks = chunksOf(urls, firstPlace);
      const states = await Promise.all(chunks.map(({ id }) => this.queue.getJobState(id)));
      const missing = chunks.filter((_, i) => states[i] === "unknown");
      await Promise.all(
        chunks.map(async ({ id }, i) => {
          if (states[i] !== "delayed" && states[i] !== "failed") return;
          const found = await Job.fromId(this.queue, id);
          if (states[i] === "delayed") await found?.promote();
          else await found?.retry();
        }),
      );
      if (missing.length > 0) await this.add(missing);
      fixed ||= missing.length > 0 || states.some((state) => state === "delayed" || state === "failed");
    });
    return fixed;
  }

  /** Adds chunks at their places; a chunk BullMQ already has is left as it is. */
  private async add(chunks: Chunk[]): Promise<void> {
    await this.queue.addBulk(
      chunks.map(({ id, place, data }) => ({ name: "count", data, opts: { jobId: id, priority: Math.min(MAX_PRIORITY, place) } })),
    );
  }

  /**
   * The job's queued URLs a page at a time, with the place (from 1) of each page's first URL. A full page ends
   * before its last chunk, which the next page starts with, so no chunk is split over two pages.
   */
  private async eachPage(job: { id: string; accountId: string }, visit: (urls: QueuedBulkUrl[], firstPlace: number) => Promise<void>) {
    let afterId = 0;
    let place = 1;
    for (;;) {
      let urls = await this.bulk.queued(job, afterId, PAGE);
      if (urls.length === 0) return;
      if (urls.length === PAGE) {
        const lastChunk = chunkJobId(job.id, urls.at(-1)!.id);
        const whole = urls.filter((url) => chunkJobId(job.id, url.id) !== lastChunk);
        if (whole.length > 0) urls = whole;
      }
      await visit(urls, place);
      place += urls.length;
      afterId = urls.at(-1)!.id;
    }
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}

interface Chunk {
  id: string;
  place: number;
  data: BulkChunkJobData;
}

/** Groups one job's URLs (in id order) into their chunks; `firstPlace` is the first URL's place in its job. */
function chunksOf(urls: readonly QueuedBulkUrl[], firstPlace: number): Chunk[] {
  const chunks: Chunk[] = [];
  urls.forEach((url, i) => {
    const id = chunkJobId(url.jobId, url.id);
    const last = chunks.at(-1);
    if (last?.id === id) last.data.urls.push({ id: url.id, countUrl: url.countUrl });
    else {
      const data = { jobId: url.jobId, accountId: url.accountId, requestId: url.requestId ?? null, urls: [{ id: url.id, countUrl: url.countUrl }] };
      chunks.push({ id, place: firstPlace + i, data });
    }
  });
  return chunks;
}
