import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";
import { membersView } from "@/dashboard/server/members/members-view";

/** The account's members and open invites; every member may see who else is in it. */
export const GET = signedInEndpoint({ need: "read" }, ({ account }) => membersView(account));
