import type Database from "better-sqlite3";
import { networkSchemas, type NetworkKey } from "../../counts/all-networks.ts";
import type { KnownCountStore } from "../counts.ts";

export function sqliteKnownCounts(db: Database.Database): KnownCountStore {
  const statements = {
    get: db.prepare<[string, string], { value: string; fetched_at: number }>(
      "SELECT value, fetched_at FROM network_count WHERE url = ? AND network = ?",
    ),
    save: db.prepare<[string, string, string, number]>(`
      INSERT INTO network_count (url, network, value, fetched_at) VALUES (?, ?, ?, ?)
      ON CONFLICT (url, network) DO UPDATE SET value = excluded.value, fetched_at = excluded.fetched_at`),
  };
  return {
    async get(url, network) {
      const row = statements.get.get(url, network);
      if (!row) return null;
      const value = networkSchemas[network].safeParse(JSON.parse(row.value));
      return value.success ? { value: value.data, fetchedAt: row.fetched_at } : null;
    },
    async save(url, network, value, fetchedAt) {
      statements.save.run(url, network, JSON.stringify(value), fetchedAt);
    },
  };
}
