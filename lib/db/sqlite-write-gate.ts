import path from "node:path";
import { Mutex } from "async-mutex";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";

type Adapter = Awaited<ReturnType<PrismaBetterSQLite3["connect"]>>;
type Transaction = Awaited<ReturnType<Adapter["startTransaction"]>>;
type Query = Parameters<Adapter["queryRaw"]>[0];

/**
 * Lets one connection at a time hold a transaction on a SQLite file, process-wide, and holds back the other
 * connections' writes while one does.
 *
 * SQLite has one writer, and better-sqlite3 waits for a busy file synchronously, on the event loop. So when
 * one process has two connections to a file (`npm start`: the API's and the dashboard's Prisma clients) and
 * one holds the write lock across a transaction's awaits, the other's write waits blocking the loop, and the
 * holder cannot commit until that wait times out (P1008 after 5 s). Waiting here is asynchronous instead.
 */
export class SqliteWriteGate {
  readonly #mutex = new Mutex();
  #holder: object | null = null;

  /** Waits for this connection's turn to hold a transaction; the answer gives it back. */
  async hold(connection: object): Promise<() => void> {
    const release = await this.#mutex.acquire();
    this.#holder = connection;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.#holder = null;
      release();
    };
  }

  /**
   * Null when the connection may write now, else what resolves once no other connection holds a transaction.
   * A connection's own open transaction does not hold it back: its writes run on that connection.
   */
  whenClearFor(connection: object): Promise<void> | null {
    return this.#holder === null || this.#holder === connection ? null : this.#clear(connection);
  }

  async #clear(connection: object): Promise<void> {
    // Ahead of queued transactions (priority 1): a write outside them is not starved by a stream of them.
    while (this.#holder !== null && this.#holder !== connection) await this.#mutex.waitForUnlock(1);
  }
}

const registry = globalThis as unknown as { sharecountSqliteWriteGates?: Map<string, SqliteWriteGate> };

/** The gate of a SQLite file: one per process (on globalThis, so Next.js's bundle and the API's modules share it). */
export function writeGateOf(file: string): SqliteWriteGate {
  const gates = (registry.sharecountSqliteWriteGates ??= new Map());
  const key = path.resolve(file);
  let gate = gates.get(key);
  if (!gate) gates.set(key, (gate = new SqliteWriteGate()));
  return gate;
}

/** Reads never wait: in WAL mode they take no lock a writer needs. */
const isRead = (query: Query) => /^\s*SELECT\b/i.test(query.sql);

const ENDS = /^\s*(COMMIT|ROLLBACK)\b/i;
const ROLLBACK: Query = { sql: "ROLLBACK", args: [], argTypes: [] };
const BEGIN_IMMEDIATE: Query = { sql: "BEGIN IMMEDIATE", args: [], argTypes: [] };

/**
 * Prisma ends a transaction with a COMMIT or ROLLBACK statement and then commit() or rollback(). When that
 * statement fails (a full disk, an I/O error) Prisma never calls either: the transaction is rolled back and its
 * turn given back here, or every connection to the file would wait for ever.
 */
function gatedTransaction(transaction: Transaction, release: () => void): Transaction {
  const settle = (end: () => Promise<void>) => async () => {
    try {
      await end();
    } finally {
      release();
    }
  };
  const abandon = settle(async () => {
    // The statement's own error is the one reported; these only clean up after it.
    await transaction.executeRaw(ROLLBACK).catch(() => undefined);
    await transaction.rollback().catch(() => undefined);
  });
  return {
    provider: transaction.provider,
    adapterName: transaction.adapterName,
    options: transaction.options,
    queryRaw: (query) => transaction.queryRaw(query),
    async executeRaw(query) {
      try {
        return await transaction.executeRaw(query);
      } catch (error) {
        if (ENDS.test(query.sql)) await abandon();
        throw error;
      }
    },
    commit: settle(() => transaction.commit()),
    rollback: settle(() => transaction.rollback()),
  };
}

function gatedAdapter(adapter: Adapter, gate: SqliteWriteGate, options: GateOptions): Adapter {
  const connection = adapter;
  const clear = (query: Query) => (isRead(query) ? null : gate.whenClearFor(connection));
  // A transaction still open when the client disconnects: rolled back, and its turn given back.
  const open = new Set<Transaction>();
  let disposed = false;
  return {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    async queryRaw(query) {
      await clear(query);
      return adapter.queryRaw(query);
    },
    async executeRaw(query) {
      await clear(query);
      return adapter.executeRaw(query);
    },
    async executeScript(script) {
      await gate.whenClearFor(connection);
      return adapter.executeScript(script);
    },
    async startTransaction(isolationLevel) {
      const release = await gate.hold(connection);
      try {
        // Prisma gives up on a transaction still waiting here when it disconnects.
        if (disposed) throw new Error("The database connection is closed");
        const begun = await adapter.startTransaction(isolationLevel);
        const transaction = gatedTransaction(begun, () => {
          open.delete(transaction);
          release();
        });
        open.add(transaction);
        if (options.immediate) {
          try {
            await begun.executeRaw(ROLLBACK);
            await begun.executeRaw(BEGIN_IMMEDIATE);
          } catch (error) {
            // The adapter's rollback() sends no statement: a transaction the ROLLBACK above left open ends here.
            await begun.executeRaw(ROLLBACK).catch(() => undefined);
            await transaction.rollback().catch(() => undefined);
            throw error;
          }
        }
        return transaction;
      } catch (error) {
        release();
        throw error;
      }
    },
    async dispose() {
      disposed = true;
      for (const transaction of open) await transaction.rollback().catch(() => undefined);
      await adapter.dispose();
    },
    ...(adapter.getConnectionInfo ? { getConnectionInfo: () => adapter.getConnectionInfo!() } : {}),
  };
}

type AdapterFactory = Pick<PrismaBetterSQLite3, "provider" | "adapterName" | "connect" | "connectToShadowDb">;

export interface GateOptions {
  /**
   * Transactions take the write lock at BEGIN (IMMEDIATE) instead of at their first write. Prisma's adapter
   * begins DEFERRED, so a transaction that reads and then writes fails with SQLITE_BUSY_SNAPSHOT, which no busy
   * wait retries, when another process commits in between. For a process that runs one thing at a time (the
   * admin command line beside a running server); a server keeps DEFERRED, since its own store's synchronous
   * writes would wait on the event loop behind a transaction holding the lock across awaits.
   */
  immediate?: boolean;
}

/** Prisma's better-sqlite3 adapter, with its connection's transactions and writes taking turns at the file's gate. */
export function gatedSqliteAdapter(file: string, options: GateOptions = {}): AdapterFactory {
  const factory = new PrismaBetterSQLite3({ url: file });
  const gate = writeGateOf(file);
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => gatedAdapter(await factory.connect(), gate, options),
    connectToShadowDb: () => factory.connectToShadowDb(),
  };
}
