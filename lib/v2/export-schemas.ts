import { z } from "zod";
import { NETWORK_IDS } from "../counts/all-networks.ts";
import { refusedSchema } from "./usage-schemas.ts";
import { apikey, count } from "./schemas.ts";

/**
 * The account export (`GET /v2/account/export`, Settings → Export): one JSON document of everything the account
 * owns. lib/accounts/account-export.ts writes it a piece at a time; the OpenAPI document and the tests read
 * its shape here.
 */

export const EXPORT_FORMAT = "sharecount-export";
export const EXPORT_VERSION = 1;

export const accountExportQuerySchema = z.strictObject({ apikey });

const time = z.iso.datetime();
const nullableTime = time.nullable();

const exportedNetworksSchema = z.partialRecord(z.enum(NETWORK_IDS), z.record(z.string(), z.number().int())).meta({
  id: "ExportedNetworks",
  description:
    "Each network that reported, with its numbers under API v2's field names (Pinterest's, VK's and OK.ru's as `count`); a network that did not report is absent, never 0",
});

const trackedUrlSchema = z.object({
  url: z.string(),
  added_at: time,
  aliases: z.array(z.string()),
  last_refreshed_at: nullableTime,
  networks: exportedNetworksSchema.nullable().meta({ description: "The latest counts (its forms combined); null before the first refresh" }),
  total: z.number().int().nullable(),
  change_7d: z.number().int().nullable(),
  change_30d: z.number().int().nullable(),
});

const historySchema = z.object({
  url: z.string(),
  points: z.array(z.object({ t: time.meta({ description: "When the counts were fetched" }), networks: exportedNetworksSchema })),
});

const bulkJobSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  created_at: time,
  completed_at: nullableTime,
  urls_queued: count,
  urls_completed: count,
  networks: z.array(z.enum(NETWORK_IDS)).meta({ description: "The networks the job asks (a job submitted through API v1: facebook and pinterest)" }),
  results: z.array(
    z.object({
      url: z.string().meta({ description: "As submitted" }),
      completed_at: time,
      networks: exportedNetworksSchema,
      stale: z.partialRecord(z.enum(NETWORK_IDS), count).meta({ description: "Networks served stale, with the age of their value in seconds" }),
    }),
  ),
});

export const accountExportSchema = z
  .object({
    format: z.literal(EXPORT_FORMAT),
    version: z.literal(EXPORT_VERSION),
    exported_at: time,
    profile: z.object({
      id: z.string(),
      email: z.string(),
      name: z.string().nullable(),
      created_at: time,
      email_verified_at: nullableTime,
      has_password: z.boolean(),
      sign_in_providers: z.array(z.string()).meta({ description: "Linked sign-in providers, by name (their tokens are not exported)" }),
      settings: z.object({
        count_variants: z.boolean(),
        networks: z.array(z.enum(NETWORK_IDS)).nullable().meta({ description: "The networks the account shows; null: every network the service asks" }),
      }),
    }),
    plan: z.object({
      name: z.string(),
      daily_quota: count,
      bulk_batch_limit: count,
      custom_ttl_allowed: z.boolean(),
      tracked_url_limit: count,
    }),
    whitelist: z.object({ enabled: z.boolean(), domains: z.array(z.string()) }),
    usage: z.object({
      allocations: z.array(z.object({ from: z.iso.date(), daily_quota: count })).meta({ description: "The daily quota from each day on" }),
      days: z.array(z.object({ day: z.iso.date(), served: count, refused: refusedSchema })).meta({ description: "Every quota day with a query served or refused, oldest first" }),
    }),
    tracked_urls: z.array(trackedUrlSchema).meta({ description: "Oldest first" }),
    history: z.array(historySchema).meta({
      description:
        "Each tracked URL's points (hourly, then the last of each day), as `GET /v2/history` serves them: observed since the account first queried or tracked the URL",
    }),
    bulk_jobs: z.array(bulkJobSchema).meta({ description: "Newest first, within the retention period, with each counted URL's result" }),
  })
  .meta({
    id: "AccountExport",
    description: "Everything the account owns. Never its API key, the key's hash, its password hash, sessions or sign-in tokens.",
  });

export type AccountExport = z.infer<typeof accountExportSchema>;
