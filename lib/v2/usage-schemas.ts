import { z } from "zod";
import { apikey, count } from "./schemas.ts";

/** API v2's usage report: its request and answer (the route, the OpenAPI document and the dashboard use them). */

/** The longest range one request answers: a year, leap day included. */
export const MAX_USAGE_RANGE_DAYS = 366;
/** The range answered when none is given: the last 30 quota days, today included. */
export const DEFAULT_USAGE_RANGE_DAYS = 30;

const quotaDay = z.iso.date().meta({ description: "A quota day, YYYY-MM-DD (midnight to midnight in the service's QUOTA_TIMEZONE)" });

export const usageQuerySchema = z.strictObject({
  apikey,
  from: quotaDay.optional().meta({ description: `First day; default ${DEFAULT_USAGE_RANGE_DAYS - 1} days before to` }),
  to: quotaDay.optional().meta({ description: `Last day, included; default today. At most ${MAX_USAGE_RANGE_DAYS} days from from` }),
});

export const REFUSED_DESCRIPTION =
  "Single-URL count queries (/v1.0/, /v1.1/, their legacy paths and /v2/counts) refused with this account's key, by reason. " +
  "quota: the daily quota was used up (quota_exceeded); whitelist: the URL's host is off the enforced whitelist (domain_not_whitelisted); " +
  "invalid: the request was not valid (invalid_url, a missing url included; invalid_custom_ttl; custom_ttl_not_allowed; invalid_parameter). " +
  "A request with an unknown or rolled key is not counted: the key names no account, so its refusal is no account's. " +
  "Refusals reach this report within a few seconds.";

export const refusedSchema = z
  .object({
    quota: count.meta({ description: "Refused with quota_exceeded" }),
    whitelist: count.meta({ description: "Refused with domain_not_whitelisted" }),
    invalid: count.meta({ description: "Refused as not valid (invalid_url, invalid_custom_ttl, custom_ttl_not_allowed, invalid_parameter)" }),
  })
  .meta({ id: "RefusedQueries", description: REFUSED_DESCRIPTION });

export const usageAnswerV2Schema = z
  .object({
    days: z.array(
      z.object({
        day: z.iso.date(),
        served: count.meta({ description: "Queries counted against the day's quota: single queries, bulk URLs counted, URLs and aliases newly tracked" }),
        refused: refusedSchema,
        quota: count.meta({ description: "The daily quota in force at the end of the day (0 before the account existed)" }),
      }),
    ),
  })
  .meta({ id: "UsageReport", description: "Every day of the range, oldest first, zeros included" });
