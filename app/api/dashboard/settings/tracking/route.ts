import { z } from "zod";
import { dashboard } from "@/dashboard/server/context";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";

/** Whether tracked URLs count their http/https × www variants. */
export const GET = signedInEndpoint({ need: "read" }, async ({ account }) => dashboard().trackingSettings.of(account.id));

export const PUT = signedInEndpoint({ need: "settings", input: z.object({ countVariants: z.boolean() }) }, async ({ account, input }) =>
  dashboard().trackingSettings.setCountVariants(account.id, input.countVariants),
);
