import pg from "pg";
import { pgPoolConfig } from "../../db/postgres-adapter.ts";

const CHANNEL = "sharecount_accounts";
const RETRY_MS = 1000;
/** A LISTEN connection never sends anything: this checks it is still there (a dropped one hears nothing). */
const HEARTBEAT_MS = 30_000;

/**
 * The accounts version on PostgreSQL: a LISTEN connection hears every committed change to accounts, plans
 * and whitelists (triggers from migration 0002_accounts_notify) and bumps the version. While it is not
 * listening (starting, reconnecting, or its heartbeat failed) the version changes on every read, so
 * nothing is served from a cache that might have missed a change. It needs a session of its own: through
 * a transaction-mode pooler (PgBouncer) LISTEN hears nothing.
 */
export class AccountsListener {
  private version = 0;
  private listening = false;
  private client: pg.Client | null = null;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;

  constructor(private readonly databaseUrl: string) {
    void this.connect();
  }

  current(): number {
    return this.listening ? this.version : ++this.version;
  }

  /** A change this process committed: its NOTIFY comes back later, and no request may be answered from before it meanwhile. */
  changed(): void {
    this.version++;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    if (this.heartbeat) clearInterval(this.heartbeat);
    await this.client?.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({
      ...pgPoolConfig(this.databaseUrl),
      connectionTimeoutMillis: 5_000,
      keepAlive: true,
      query_timeout: 5_000,
    });
    this.client = client;
    const lost = () => {
      if (this.client !== client) return;
      if (this.heartbeat) clearInterval(this.heartbeat);
      this.listening = false;
      this.version++;
      this.client = null;
      client.end().catch(() => {});
      if (!this.closed) this.retry = setTimeout(() => void this.connect(), RETRY_MS);
    };
    client.on("error", lost);
    client.on("end", lost);
    client.on("notification", () => this.version++);
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      // Changes committed before LISTEN took effect were not heard: start from a new version.
      this.version++;
      this.listening = !this.closed;
      this.heartbeat = setInterval(() => void client.query("SELECT 1").catch(lost), HEARTBEAT_MS);
      this.heartbeat.unref();
    } catch {
      lost();
    }
  }
}
