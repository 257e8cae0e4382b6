import { keyUsage } from "@/dashboard/server/key-usage";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";

/** Requests per key and day over the last 14 days (the keys page's chart). */
export const GET = signedInEndpoint({ need: "read" }, ({ account }) => keyUsage(account.id));
