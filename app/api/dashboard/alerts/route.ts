import { z } from "zod";
import { MAILABLE_TYPES, type EventType } from "@/lib/alerts/alert-types";
import { SPIKE_LIMITS } from "@/lib/alerts/alert-settings";
import { dashboard } from "@/dashboard/server/context";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";

/** What the account is mailed about, and when a tracked URL's growth is a spike. */
export const GET = signedInEndpoint({ need: "read" }, async ({ account }) => dashboard().alertSettings.of(account.id));

const change = z
  .object({
    email: z.array(z.enum(MAILABLE_TYPES as [EventType, ...EventType[]])).max(MAILABLE_TYPES.length),
    digest: z.boolean(),
    spikeMinIncrease: z.number().int().min(SPIKE_LIMITS.minIncrease.min).max(SPIKE_LIMITS.minIncrease.max),
    spikeRatio: z.number().min(SPIKE_LIMITS.ratio.min).max(SPIKE_LIMITS.ratio.max),
  })
  .partial()
  .strict();

export const PUT = signedInEndpoint({ need: "settings", input: change }, async ({ account, input }) =>
  dashboard().alertSettings.update(account.id, input),
);
