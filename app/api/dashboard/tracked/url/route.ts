import { z } from "zod";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";
import { MAX_URL_LENGTH } from "@/lib/urls/url-length";

/** One tracked URL: counts, aliases and the forms breakdown. */
export const GET = signedInEndpoint({ need: "read", input: z.object({ url: z.string().max(MAX_URL_LENGTH) }) }, async ({ input, api }) =>
  (await api()).trackedUrl(input.url),
);
