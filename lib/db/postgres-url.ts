/** `postgres://` or `postgresql://`: the scale-out database. Anything else is the embedded SQLite default. */
export function isPostgresUrl(url: string | undefined): url is string {
  return typeof url === "string" && /^postgres(ql)?:\/\//i.test(url);
}

export interface PostgresConnection {
  /** For `pg` (Pool, Client): the URL without Prisma's own `schema` parameter. */
  connectionString: string;
  /** Prisma's `?schema=` (the PostgreSQL schema the tables live in), when given. */
  schema?: string;
}

/** Splits Prisma's `?schema=name` off a PostgreSQL URL: `pg` does not know it, the adapter takes it as an option. */
export function parsePostgresUrl(url: string): PostgresConnection {
  if (!isPostgresUrl(url)) throw new Error(`not a postgres:// or postgresql:// URL: ${redactPostgresUrl(url)}`);
  const parsed = new URL(url);
  const schema = parsed.searchParams.get("schema") ?? undefined;
  if (schema === undefined) return { connectionString: url };
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(schema)) throw new Error(`DATABASE_URL: ?schema= must be a plain identifier, got ${schema}`);
  parsed.searchParams.delete("schema");
  return { connectionString: parsed.toString(), schema };
}

/** The URL with its password masked, for messages and logs. */
export function redactPostgresUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return url.replace(/:[^:@/]*@/, ":***@");
  }
}
