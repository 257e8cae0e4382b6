import { admits } from "../../lib/whitelist/domains.ts";
import type { AccountContext } from "../../lib/store/accounts.ts";
import { apiErrors } from "../http/errors.ts";

/**
 * An enforced whitelist refuses a URL off it with one 403 at every entry point that names a URL: counts, bulk
 * (v2), tracking and its aliases, history. (v1 bulk drops such URLs from the job instead, as the original did.)
 */
export function assertWhitelisted(account: Pick<AccountContext, "whitelist">, host: string): void {
  if (!admits(account.whitelist, host)) throw apiErrors.domainNotWhitelisted(host);
}
