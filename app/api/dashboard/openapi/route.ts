import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";

/** The API's OpenAPI document, for the reference page (read from the API, which generates it). */
export const GET = signedInEndpoint({ need: "read" }, async ({ api }) => (await api()).openApi());
