import { randomUUID } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { createDatabase, databaseUrl, dropDatabase } from "./postgres-admin.ts";
import { parsePostgresUrl } from "./postgres-url.ts";

/** `pg` settings for a URL: with `?schema=`, the connections' search path starts there (migration scripts too). */
export function pgPoolConfig(url: string): pg.PoolConfig {
  const { connectionString, schema } = parsePostgresUrl(url);
  return schema ? { connectionString, options: `-c search_path=${schema}` } : { connectionString };
}

function adapterOptions(url: string): { schema?: string } {
  const { schema } = parsePostgresUrl(url);
  return schema ? { schema } : {};
}

/** The Prisma driver adapter for a PostgreSQL URL (a `pg` Pool underneath; no native engine). */
export function createPgAdapter(url: string): PrismaPg {
  return new PrismaPg(pgPoolConfig(url), adapterOptions(url));
}

// PostgreSQL catalog types the schema engine reads (through `information_schema` and `pg_catalog`) that
// @prisma/adapter-pg 6.19 cannot describe: it fails with "Column type 'name' could not be deserialized"
// (prisma/prisma#27403). Their text form is a plain string, so they are reported as `text`.
const CATALOG_TEXT_TYPES = new Map<number, number>([
  [18, 25], // "char"
  [19, 25], // name
]);

type Fields = { fields?: { dataTypeID: number }[] };

function asText<T>(result: T): T {
  for (const part of Array.isArray(result) ? (result as Fields[]) : [result as Fields]) {
    for (const field of part?.fields ?? []) field.dataTypeID = CATALOG_TEXT_TYPES.get(field.dataTypeID) ?? field.dataTypeID;
  }
  return result;
}

/** Makes a pool connection report catalog types as text (promise and callback forms of `query`). */
function reportCatalogTypesAsText(client: pg.PoolClient): void {
  const query = client.query as (...args: unknown[]) => unknown;
  client.query = function (this: pg.PoolClient, ...args: unknown[]) {
    if (typeof (args[0] as { submit?: unknown })?.submit === "function") return query.apply(this, args);
    const last = args[args.length - 1];
    if (typeof last === "function") {
      const callback = last as (error: Error | null, result: unknown) => void;
      return query.apply(this, [...args.slice(0, -1), (error: Error | null, result: unknown) => callback(error, error ? result : asText(result))]);
    }
    const result = query.apply(this, args);
    return result instanceof Promise ? result.then(asText) : result;
  } as typeof client.query;
}

function catalogAwarePool(url: string): pg.Pool {
  // The CLI does not always dispose of its adapters: idle connections must not keep it running.
  const pool = new pg.Pool({ ...pgPoolConfig(url), allowExitOnIdle: true });
  pool.on("connect", reportCatalogTypesAsText);
  return pool;
}

type ScriptAdapter = { executeScript(script: string): Promise<void>; onError(error: unknown): never };

/**
 * @prisma/adapter-pg 6.19 runs a migration script by splitting it on every ";", which breaks statements
 * that contain one (a PL/pgSQL function body). PostgreSQL runs a multi-statement script in one simple
 * query, which is what this does instead.
 */
function runScriptsWhole<A extends object>(adapter: A, pool: pg.Pool): A {
  const scripts = adapter as unknown as ScriptAdapter;
  scripts.executeScript = async (script) => {
    try {
      await pool.query(script);
    } catch (error) {
      scripts.onError(error);
    }
  };
  return adapter;
}

/** A factory whose adapters run migration scripts whole (see runScriptsWhole). */
function migrationFactory(pool: pg.Pool, options: { schema?: string }): PrismaPg {
  const factory = new PrismaPg(pool, { ...options, disposeExternalPool: true });
  const connect = factory.connect.bind(factory);
  factory.connect = async () => runScriptsWhole(await connect(), pool);
  return factory;
}

/**
 * The adapter for Prisma's CLI (`migrate deploy`, `migrate diff`, `migrate status` with
 * prisma.postgres.config.ts): the schema engine reads PostgreSQL's catalogs, whose `name` columns the
 * adapter alone cannot read, and applies scripts with PL/pgSQL in them. The application's client uses {@link createPgAdapter}: its queries only touch
 * the schema's own tables.
 */
export function createPgMigrationAdapter(url: string): PrismaPg {
  const options = adapterOptions(url);
  const factory = migrationFactory(catalogAwarePool(url), options);
  // The adapter's own shadow database (for `migrate diff --from-migrations`) keeps the connection string's
  // database name, so it replays the migrations into the real database; this one connects to the new database.
  factory.connectToShadowDb = async () => {
    const shadow = `prisma_shadow_${randomUUID().replaceAll("-", "")}`;
    await createDatabase(url, shadow);
    const adapter = await migrationFactory(catalogAwarePool(databaseUrl(url, shadow)), options).connect();
    const dispose = adapter.dispose.bind(adapter);
    adapter.dispose = async () => {
      await dispose();
      await dropDatabase(url, shadow);
    };
    return adapter;
  };
  return factory;
}
