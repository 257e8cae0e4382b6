/**
 * How many exports run at once: one per account, a few per process. An export reads every row an account owns;
 * on SQLite each page is a synchronous read, so unbounded parallel exports would take the event loop from
 * every other request (the red team froze /status for 30 s with 20 at once).
 */
export class ExportGate {
  private readonly accounts = new Set<string>();

  constructor(private readonly maxRunning = 2) {}

  /** A release function, or null when this account's export or too many others are running. */
  enter(accountId: string): (() => void) | null {
    if (this.accounts.has(accountId) || this.accounts.size >= this.maxRunning) return null;
    this.accounts.add(accountId);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.accounts.delete(accountId);
    };
  }
}

/** The process's gate (the API's and the dashboard's exports each take from their module's). */
export const exportGate = new ExportGate();
