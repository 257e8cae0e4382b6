import { UrlListReader, type AcceptedUrl } from "../../lib/bulk/url-list.ts";
import { admits } from "../../lib/whitelist/domains.ts";
import type { AccountContext } from "../../lib/store/accounts.ts";

/**
 * The URLs of a job being submitted, taken line by line as its body arrives, by the one line rule
 * (lib/bulk/url-list.ts). Until the key is known (it may come after the URLs, in a form or JSON body), the
 * largest plan's limit bounds what is kept and the whitelist waits; `identify` then applies the account's.
 */
export class BulkSubmission {
  private readonly reader = new UrlListReader(null);
  private accepted: AcceptedUrl[] = [];
  private account: AccountContext | null = null;
  /** Lines were let go unread before the key said whose body this is: whatever its whitelist, too many. */
  private overflowedUnidentified = false;

  constructor(
    account: AccountContext | null,
    /** The largest batch limit of any plan: the bound while the account is not known. */
    private readonly provisionalLimit: number,
  ) {
    if (account) this.identify(account);
  }

  get limit(): number {
    return this.account ? this.account.plan.bulkBatchLimit : this.provisionalLimit;
  }

  /** More URLs than the limit were accepted: the job will be refused, and the rest of the body need not be read. */
  get over(): boolean {
    return this.overflowedUnidentified || this.accepted.length > this.limit;
  }

  get urls(): readonly AcceptedUrl[] {
    return this.accepted;
  }

  identify(account: AccountContext): void {
    this.account = account;
    this.accepted = this.accepted.filter((url) => admits(account.whitelist, url.host));
  }

  add(line: string): void {
    if (this.over) {
      // Not knowing the whitelist yet, the lines no longer kept might have been the ones it admits.
      if (!this.account) this.overflowedUnidentified = true;
      return;
    }
    const verdict = this.reader.read(line);
    if (verdict.kind !== "accepted") return;
    if (this.account && !admits(this.account.whitelist, verdict.host)) return;
    this.accepted.push(verdict);
  }
}
