import { z } from "zod";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";

const input = z.object({ url: z.string().trim().min(1, "Enter a URL.").max(2048) });

/** One URL's counts through the public API with this account's key (it counts against the quota, as any query). */
export const POST = signedInEndpoint({ input }, async ({ input, api }) => (await api()).lookup(input.url));
