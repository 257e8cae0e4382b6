import { dashboard } from "@/dashboard/server/context";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";
import { DashboardError } from "@/dashboard/client/dashboard-error";
import { openAccountExport } from "@/lib/accounts/account-export";

/**
 * Settings → Export: everything the account owns as one JSON file, streamed from the store as it is read
 * (lib/accounts/account-export.ts; the API's `GET /v2/account/export` writes the same). A GET that changes
 * nothing: a cross-site link can only start a download into the user's own browser.
 */
export const GET = signedInEndpoint({ need: "export" }, async ({ account }) => {
  const { store, clock } = dashboard();
  const file = await openAccountExport(store, account.id, clock.now());
  if (file === "busy") throw new DashboardError("rate_limited", 429, "An export of this account is being written, or too many exports are: try again when it is done.");
  if (!file) throw new DashboardError("session_not_found", 401, "Please sign in again.");
  return new Response(file.body, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${file.filename}"`,
      "Cache-Control": "no-store",
    },
  });
});
