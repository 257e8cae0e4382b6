import { dashboard } from "@/dashboard/server/context";
import { DashboardError } from "@/dashboard/client/dashboard-error";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";

/** Reveal: the API key itself, only when the user asks. POST, so it is same-origin checked and never cached. */
export const POST = signedInEndpoint({}, async ({ account }) => {
  const apiKey = await dashboard().accounts.apiKeyOf(account.id);
  if (!apiKey) throw new DashboardError("no_key", 409, "This account has no stored API key: roll the key to get one.");
  return { apiKey };
});
