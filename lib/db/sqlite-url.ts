import fs from "node:fs";
import path from "node:path";

export const DEFAULT_DATABASE_URL = "file:./data/sharecount.db";

/** `file:./data/x.db` → absolute file path, resolved against the working directory (not the schema folder); creates its folder. */
export function sqliteFileFromUrl(url: string | undefined): string {
  const value = url && url.length > 0 ? url : DEFAULT_DATABASE_URL;
  if (!value.startsWith("file:")) throw new Error(`DATABASE_URL must be a file: URL for SQLite, got ${value}`);
  const file = path.resolve(value.slice("file:".length));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  return file;
}
