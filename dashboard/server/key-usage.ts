import "server-only";
import { foldKeyUsage, type KeyUsage } from "../../lib/keys/key-usage.ts";
import { dashboard } from "./context.ts";

const HOUR = 3_600_000;
export const KEY_USAGE_DAYS = 14;

/** The account's requests per key over the last `days` days, from the request log. */
export async function keyUsage(accountId: string, days = KEY_USAGE_DAYS): Promise<KeyUsage> {
  const { store, keys, clock } = dashboard();
  const now = clock.now();
  // A day and an hour more than asked: the first day starts at its time zone's midnight, somewhere in that hour.
  const from = Math.floor((now - (days + 1) * 24 * HOUR) / HOUR) * HOUR;
  const [hours, list] = await Promise.all([store.requests.hourlyByKey(accountId, from, now + HOUR), keys.list(accountId)]);
  return foldKeyUsage(hours, new Map(list.map((key) => [key.id, key.name])), clock.timeZone, now, days);
}
