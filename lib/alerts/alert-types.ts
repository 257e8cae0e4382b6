import { z } from "zod";

/**
 * Every event an account can hear about, with its payload's `data` (the webhook body's and GET /v2/events'),
 * and whether it is mailed unless the account says otherwise.
 */
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const quotaData = z.object({ used: z.number().int().nonnegative(), quota: z.number().int().nonnegative(), day });
const networkData = z.object({ network: z.string(), state: z.string(), since: z.iso.datetime(), reason: z.string().nullable() });

export const EVENT_TYPES = {
  "bulk.completed": {
    data: z.object({
      bulk_id: z.string(),
      urls: z.number().int().nonnegative(),
      completed: z.number().int().nonnegative(),
      failed: z.number().int().nonnegative(),
      quota_spent: z.number().int().nonnegative(),
      finished_at: z.iso.datetime(),
    }),
    mailedByDefault: false,
    title: "Bulk job finished",
  },
  "quota.warning": { data: quotaData, mailedByDefault: true, title: "80 % of the daily quota used" },
  "quota.exhausted": { data: quotaData, mailedByDefault: true, title: "Daily quota used up" },
  "tracked_url.spike": {
    data: z.object({
      url: z.string(),
      network: z.string(),
      from: z.number().int().nonnegative(),
      to: z.number().int().nonnegative(),
      window_hours: z.number().positive(),
    }),
    mailedByDefault: true,
    title: "Tracked URL spike",
  },
  "tracked_url.milestone": {
    data: z.object({ url: z.string(), total: z.number().int().nonnegative(), milestone: z.number().int().positive() }),
    mailedByDefault: true,
    title: "Tracked URL milestone",
  },
  "network.degraded": { data: networkData, mailedByDefault: false, title: "Network degraded" },
  "network.recovered": { data: networkData, mailedByDefault: false, title: "Network recovered" },
  "webhook.test": { data: z.object({ endpoint_id: z.string(), message: z.string() }), mailedByDefault: false, title: "Test event" },
} as const;

export type EventType = keyof typeof EVENT_TYPES;
export type EventData<T extends EventType> = z.infer<(typeof EVENT_TYPES)[T]["data"]>;

export const EVENT_TYPE_NAMES = Object.keys(EVENT_TYPES) as EventType[];

/** What a user can ask to be mailed about (a test event goes only to the endpoint it tests). */
export const MAILABLE_TYPES = EVENT_TYPE_NAMES.filter((type) => type !== "webhook.test");

export function isEventType(value: string): value is EventType {
  return Object.hasOwn(EVENT_TYPES, value);
}

/** The thresholds tracked URLs' totals are marked at (tracked_url.milestone). */
export const MILESTONES = [100, 1_000, 10_000, 100_000, 1_000_000] as const;

/** An event as stored and as every channel sees it. */
export interface StoredEvent<T extends EventType = EventType> {
  id: string;
  accountId: string;
  type: T;
  data: EventData<T>;
  createdAt: number;
}

/** The JSON every channel and GET /v2/events carry: Standard Webhooks' body. */
export function eventBody(event: StoredEvent): { type: EventType; timestamp: string; data: unknown } {
  return { type: event.type, timestamp: new Date(event.createdAt).toISOString(), data: event.data };
}
