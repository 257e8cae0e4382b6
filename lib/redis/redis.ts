import { Redis, type RedisOptions } from "ioredis";
import { UnavailableError } from "../errors.ts";

/**
 * A Redis connection for the request path: auto-pipelined (the commands of one event-loop turn go out
 * together), and failing within seconds rather than holding a request while Redis is away, so the caller
 * answers 503 and the client retries.
 */
export function connectRedis(url: string, options: RedisOptions = {}): Redis {
  const redis = new Redis(url, {
    enableAutoPipelining: true,
    maxRetriesPerRequest: 1,
    commandTimeout: 2_000,
    connectTimeout: 5_000,
    ...options,
  });
  // Reconnection is automatic; without a listener a lost connection would be an unhandled 'error' event.
  redis.on("error", () => {});
  return redis;
}

/** Redis answered, but not in a way that lets the request be served now (a 503). */
export class RedisUnavailableError extends UnavailableError {
  static override readonly kind: string = "RedisUnavailableError";
}

const UNAVAILABLE = [
  /Connection is closed/i,
  /Stream isn't writeable/i,
  /Command timed out/i,
  /Reached the max retries per request limit/i,
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH/,
  /^LOADING /,
  /^MASTERDOWN /,
  // Out of memory under noeviction, or a replica after a failover: Redis is up but cannot take writes.
  /^OOM /,
  /^READONLY /,
];

/** Whether an error means Redis could not be reached or used right now (a 503), rather than a bug. */
export function isRedisUnavailableError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error instanceof RedisUnavailableError || error.name === "MaxRetriesPerRequestError") return true;
  return UNAVAILABLE.some((pattern) => pattern.test(error.message));
}

/** Closes a connection, waiting for replies to commands already sent; never throws. */
export async function closeRedis(redis: Redis): Promise<void> {
  try {
    await redis.quit();
  } catch {
    redis.disconnect();
  }
}

/** Deletes every key under `prefix:` (a deployment's, or a test's, whole namespace) on the Redis at `url`. */
export async function deleteKeysUnder(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  redis.on("error", () => {});
  try {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
      if (keys.length > 0) await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== "0");
  } finally {
    redis.disconnect();
  }
}
