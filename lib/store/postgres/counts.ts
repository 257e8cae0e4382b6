import { networkSchemas, type NetworkKey } from "../../counts/all-networks.ts";
import type { KnownCountStore } from "../counts.ts";
import { coalesced } from "../per-tick.ts";
import { sortedBy, type Sql } from "./pool.ts";

const SQL = {
  get: "SELECT value, fetched_at FROM network_count WHERE url = $1 AND network = $2",
  // One statement for every count fetched while the last one ran, and no more than one per SAVE_GAP_MS (keys
  // sorted, repeats merged): answers come one or two a turn, so a statement per turn was a commit per answer.
  saveMany: `
    INSERT INTO network_count (url, network, value, fetched_at)
    SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[])
    ON CONFLICT (url, network) DO UPDATE SET value = excluded.value, fetched_at = excluded.fetched_at`,
};

const SAVE_GAP_MS = 8;

interface Saved {
  url: string;
  network: NetworkKey;
  value: string;
  fetchedAt: number;
}

export function postgresKnownCounts(sql: Sql): KnownCountStore {
  const save = coalesced(async (batch: Saved[]) => {
    const rows = sortedBy(new Map(batch.map((c) => [`${c.network} ${c.url}`, c])).entries());
    await sql.query("saveKnownCounts", SQL.saveMany, [
      rows.map((c) => c.url),
      rows.map((c) => c.network),
      rows.map((c) => c.value),
      rows.map((c) => c.fetchedAt),
    ]);
    return batch.map(() => undefined);
  }, SAVE_GAP_MS);
  return {
    async get(url, network) {
      const row = (await sql.query<{ value: string; fetched_at: number }>("knownCount", SQL.get, [url, network])).rows[0];
      if (!row) return null;
      const value = networkSchemas[network].safeParse(JSON.parse(row.value));
      return value.success ? { value: value.data, fetchedAt: row.fetched_at } : null;
    },
    save(url, network, value, fetchedAt) {
      return save({ url, network, value: JSON.stringify(value), fetchedAt });
    },
  };
}
