import { z } from "zod";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";
import type { EndpointLookup, LookupEndpoint } from "@/dashboard/client/lookup";

const input = z.object({
  url: z.string().trim().min(1, "Enter a URL.").max(2048),
  endpoint: z.enum(["v1", "v2"]) satisfies z.ZodType<LookupEndpoint>,
});

/**
 * One URL's counts through the public API with this account's key (it counts against the quota, as any query):
 * API v2 asks the networks the account shows (none are named), v1.0 Facebook and Pinterest.
 */
export const POST = signedInEndpoint({ input }, async ({ input, api }): Promise<EndpointLookup> => {
  const client = await api();
  return input.endpoint === "v2" ? { endpoint: "v2", ...(await client.lookupNetworks(input.url)) } : { endpoint: "v1", ...(await client.lookup(input.url)) };
});
