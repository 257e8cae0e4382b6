import { z } from "zod";
import { MAX_URL_LENGTH } from "@/lib/urls/url-length";
import { dashboard } from "@/dashboard/server/context";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";
import { alertMarks } from "@/dashboard/server/webhooks-api";

const DAY = 86_400_000;

const query = z.object({
  url: z.string().max(MAX_URL_LENGTH).optional(),
  days: z.coerce.number().int().min(1).max(366).default(30),
});

/** The spikes and milestones of the last `days` days, of one tracked URL when `url` is given: the charts' marks. */
export const GET = signedInEndpoint({ need: "read", input: query }, async ({ input, api }) => ({
  marks: await alertMarks(await api(), { types: ["tracked_url.spike", "tracked_url.milestone"], since: dashboard().clock.now() - input.days * DAY, url: input.url }),
}));
