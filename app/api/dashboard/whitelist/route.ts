import { z } from "zod";
import { userSource } from "@/dashboard/server/audit-source";
import { dashboard } from "@/dashboard/server/context";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";
import { sortEntries, type WhitelistState } from "@/dashboard/client/whitelist-editor";
import { normalizeWhitelistEntry } from "@/lib/whitelist/domains";

/** Far more entries than anyone keeps by hand; a bound so one request cannot ask for an unbounded write. */
const MAX_ENTRIES = 1_000;
const MAX_ENTRY_LENGTH = 2_048;

/** An entry as typed (the service stores its normal form), refused here with the same reason the editor shows. */
const entry = z
  .string()
  .max(MAX_ENTRY_LENGTH)
  .superRefine((value, context) => {
    const result = normalizeWhitelistEntry(value);
    if (!result.ok) context.addIssue({ code: "custom", message: result.reason });
  });

const whitelistInput = z.object({
  domains: z.array(entry).max(MAX_ENTRIES, `at most ${MAX_ENTRIES} entries`),
  enabled: z.boolean(),
});

/** The whitelist as the public API reports it, so the page shows what queries are checked against. */
export const GET = signedInEndpoint({ need: "read" }, async ({ api }): Promise<WhitelistState> => {
  const whitelist = await (await api()).whitelist();
  return { domains: sortEntries(whitelist.domains), enabled: whitelist.whitelist_domains_enabled };
});

/**
 * Replaces the whitelist through the service's own account code (the public API has no write endpoint), which
 * normalizes each entry; an invalid entry is a 422 with its reason. The API sees the change with its next request.
 */
// The most entries at their longest, as JSON.
export const PUT = signedInEndpoint({ need: "settings", input: whitelistInput, maxBodyBytes: MAX_ENTRIES * (MAX_ENTRY_LENGTH + 8) + 1024 }, async ({ account, input }): Promise<WhitelistState> => {
  const saved = await dashboard().accounts.setWhitelist(account.email, input.domains, input.enabled, await userSource(account));
  return { domains: sortEntries(saved.whitelist.domains), enabled: saved.whitelist.enabled };
});
