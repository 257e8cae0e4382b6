import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";
import { dashboard } from "@/dashboard/server/context";
import { requestsOf } from "@/dashboard/server/requests-api";
import { requestsRouteSchema } from "@/dashboard/client/requests";

/** GET ?status=&error_type=&key_id=&path=&range=&cursor=: a page of the account's request log, newest first. */
export const GET = signedInEndpoint({ need: "read", input: requestsRouteSchema }, async ({ input, api }) => requestsOf(await api(), dashboard().clock.now()).page(input));
