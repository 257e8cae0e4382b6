import { z } from "zod";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";
import { DashboardError } from "@/dashboard/client/dashboard-error";
import type { EndpointLookup, LookupEndpoint } from "@/dashboard/client/lookup";
import { MAX_URL_LENGTH } from "@/lib/urls/url-length";
import { displayUrl } from "@/lib/urls/display-url";
import { parseUserUrl } from "@/lib/urls/user-url";

const input = z.object({
  url: z.string().trim().min(1, "Enter a URL.").max(MAX_URL_LENGTH),
  endpoint: z.enum(["v1", "v2"]) satisfies z.ZodType<LookupEndpoint>,
});

/**
 * One URL's counts through the public API with this account's key (it counts against the quota, as any query):
 * API v2 asks the networks the account shows (none are named), v1.0 Facebook and Pinterest. The URL is read by
 * the rule of the paste form and POST /v2/tracked (`example.org/page` is https://example.org/page); one it
 * refuses spends no query. Read here, not in the browser: the overview then loads no IDNA tables.
 */
export const POST = signedInEndpoint({ need: "work", input }, async ({ input, api }): Promise<EndpointLookup> => {
  const parsed = parseUserUrl(input.url);
  if (!parsed.ok) throw new DashboardError("invalid_url", 400, `Not a valid URL: ${parsed.reason}.`);
  const client = await api();
  const url = parsed.normalized;
  const looked = { url, shownUrl: displayUrl(url) };
  return input.endpoint === "v2"
    ? { endpoint: "v2", ...(await client.lookupNetworks(url)), ...looked }
    : { endpoint: "v1", ...(await client.lookup(url)), ...looked };
});
