import { z } from "zod";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";

const importId = z.object({ id: z.string().max(64) });

/** A sitemap or feed import's progress. */
export const GET = signedInEndpoint({ need: "read", input: importId }, async ({ input, api }) => (await api()).importStatus(input.id));

/** Cancels a queued or running import (what it added stays), and stops reading a feed daily. */
export const DELETE = signedInEndpoint({ need: "work", input: importId }, async ({ input, api }) => {
  await (await api()).cancelImport(input.id);
  return { cancelled: input.id };
});
