import { z } from "zod";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";

/** A sitemap or feed import's progress. */
export const GET = signedInEndpoint({ input: z.object({ id: z.string().max(64) }) }, async ({ input, api }) => (await api()).importStatus(input.id));
