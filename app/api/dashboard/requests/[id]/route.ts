import { z } from "zod";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";
import { dashboard } from "@/dashboard/server/context";
import { requestsOf } from "@/dashboard/server/requests-api";

/** One request of the account's log (for the detail drawer, also when opened from a link). */
export const GET = signedInEndpoint({ need: "read", input: z.object({ id: z.string().regex(/^req_[0-9a-z]{21}$/, "not a request id") }) }, async ({ input, api }) =>
  requestsOf(await api(), dashboard().clock.now()).get(input.id),
);
