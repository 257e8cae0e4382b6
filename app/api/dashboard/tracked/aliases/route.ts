import { z } from "zod";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";
import { MAX_URL_LENGTH } from "@/lib/urls/url-length";

const aliases = z.object({ url: z.string().max(MAX_URL_LENGTH), aliases: z.array(z.string().max(MAX_URL_LENGTH)).max(10) });

/** Replaces a tracked URL's aliases (the API checks and normalizes them). */
export const PUT = signedInEndpoint({ need: "work", input: aliases }, async ({ input, api }) => (await api()).setAliases(input.url, input.aliases));
