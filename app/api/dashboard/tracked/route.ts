import { z } from "zod";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";
import { MAX_URL_LENGTH } from "@/lib/urls/url-length";
import { MAX_TRACKED_PER_REQUEST } from "@/lib/v2/tracked-schemas";

const pageQuery = z.object({
  sort: z.enum(["total", "change_7d", "added"]).default("added"),
  order: z.enum(["desc", "asc"]).default("desc"),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  cursor: z.string().max(200).optional(),
  q: z
    .string()
    .max(200)
    .refine((text) => !/[\u0000-\u001f]/.test(text), "The search may not contain control characters.")
    .optional(),
  filter: z.enum(["growing", "uncounted"]).optional(),
});

/** A page of the account's tracked URLs, with sparklines. */
export const GET = signedInEndpoint({ need: "read", input: pageQuery }, async ({ input, api }) => (await api()).trackedPage(input));

const addition = z.union([
  z.object({ urls: z.array(z.string().max(MAX_URL_LENGTH)).min(1).max(MAX_TRACKED_PER_REQUEST) }),
  z.object({ sitemap: z.string().max(MAX_URL_LENGTH) }),
  z.object({ feed: z.string().max(MAX_URL_LENGTH) }),
]);

/** Tracks pasted or uploaded URLs now, or queues a sitemap or feed import (its id is followed for progress). */
export const POST = signedInEndpoint(
  { need: "work", input: addition, maxBodyBytes: MAX_TRACKED_PER_REQUEST * (MAX_URL_LENGTH + 4) + 1024 },
  async ({ input, api }) => {
    const client = await api();
    if ("urls" in input) return { kind: "added" as const, ...(await client.track(input.urls)) };
    const queued = "sitemap" in input ? await client.importFrom("sitemap", input.sitemap) : await client.importFrom("feed", input.feed);
    return { kind: "import" as const, importId: queued.import_id };
  },
);

/** Stops tracking a URL. */
export const DELETE = signedInEndpoint({ need: "work", input: z.object({ url: z.string().max(MAX_URL_LENGTH) }) }, async ({ input, api }) => {
  await (await api()).untrack(input.url);
  return { removed: input.url };
});
