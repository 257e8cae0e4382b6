import type { KeyHour, RequestCursor, RequestFilter, RequestLogRow } from "./requests.ts";

/**
 * How both engines keep the request log: a chunk is one SQL row holding the requests of one account in one
 * clock minute that one insert wrote, as JSON. A row per request cost the cached hot path 10 % more CPU (an
 * SQLite insert is 4 to 6 µs of CPU whatever its size); a chunk costs one insert per account per flush, and its
 * requests a JSON encoding each. Reads merge chunks newest first and filter their rows in memory; each chunk
 * carries what lets a read skip it without decoding (its key counts, its errors).
 */

/** Request ids begin with the request's time in 9 base-36 digits (see service/requests/request-id.ts). */
const TIME_DIGITS = 9;
export const timePart = (time: number) => Math.max(0, Math.floor(time)).toString(36).padStart(TIME_DIGITS, "0");
/** Every id of a request made before `time` sorts below this. */
export const idBefore = (time: number): string => `req_${timePart(time)}`;
/** The time a request id begins with. */
export const idTime = (id: string): number => parseInt(id.slice(4, 4 + TIME_DIGITS), 36);

const MINUTE = 60_000;
const HOUR = 3_600_000;
/** A chunk's requests all began in one minute: it spans less than this. */
export const CHUNK_SPAN_MS = MINUTE;

/** One chunk as stored. `keys`: [key id, requests, errors] per key; `data`: the requests without their account. */
export interface ChunkRecord {
  /** The id of its newest request: chunks sort as their newest requests do, and pruning walks the primary key. */
  id: string;
  account_id: string;
  /** The id of its oldest request. */
  first_id: string;
  /** Epoch milliseconds of the minute its requests began in. */
  minute: number | bigint;
  rows: number;
  errors: number;
  keys: string;
  data: string;
}

/**
 * A chunk's requests as stored: the text they repeat (the same paths, queries, URLs, networks and agents) once, in
 * `text`, and each request as numbers: [id, ms after the minute, status, duration ms, quota spent, then the index in
 * `text` of key id, method, path, query, error type, url, ip, user agent (-1: null)].
 */
interface Packed {
  text: string[];
  rows: [string, number, number, number, number, number, number, number, number, number, number, number, number][];
}

function pack(minute: number, list: readonly RequestLogRow[]): string {
  const text: string[] = [];
  const index = new Map<string, number>();
  const at = (value: string | null) => {
    if (value === null) return -1;
    let i = index.get(value);
    if (i === undefined) index.set(value, (i = text.push(value) - 1));
    return i;
  };
  const rows = list.map((r) => [
    r.id, r.time - minute, r.status, r.durationMs, r.quotaSpent,
    at(r.keyId), at(r.method), at(r.path), at(r.query), at(r.errorType), at(r.url), at(r.ip), at(r.userAgent),
  ]);
  return JSON.stringify({ text, rows });
}

function unpack(accountId: string, minute: number, data: string): RequestLogRow[] {
  const { text, rows } = JSON.parse(data) as Packed;
  const of = (i: number) => (i === -1 ? null : text[i]!);
  const must = (i: number) => text[i] ?? "";
  return rows.map((p) => ({
    id: p[0], accountId, time: minute + p[1], status: p[2], durationMs: p[3], quotaSpent: p[4],
    keyId: of(p[5]), method: must(p[6]), path: must(p[7]), query: must(p[8]), errorType: of(p[9]), url: of(p[10]),
    ip: must(p[11]), userAgent: of(p[12]),
  }));
}

/** An insert's rows as chunks: one per account and minute. */
export function toChunks(rows: readonly RequestLogRow[]): ChunkRecord[] {
  const groups = new Map<string, RequestLogRow[]>();
  for (const row of rows) {
    const group = `${row.accountId} ${Math.floor(row.time / MINUTE)}`;
    const list = groups.get(group);
    if (list) list.push(row);
    else groups.set(group, [row]);
  }
  return [...groups.values()].map((list) => {
    const minute = Math.floor(list[0]!.time / MINUTE) * MINUTE;
    let first = list[0]!.id;
    let last = first;
    let errors = 0;
    const keys = new Map<string | null, [string | null, number, number]>();
    for (const row of list) {
      if (row.id < first) first = row.id;
      if (row.id > last) last = row.id;
      const failed = row.status >= 400 ? 1 : 0;
      errors += failed;
      const key = keys.get(row.keyId);
      if (key) {
        key[1]++;
        key[2] += failed;
      } else keys.set(row.keyId, [row.keyId, 1, failed]);
    }
    return {
      id: last,
      account_id: list[0]!.accountId,
      first_id: first,
      minute,
      rows: list.length,
      errors,
      keys: JSON.stringify([...keys.values()]),
      data: pack(minute, list),
    };
  });
}

/** What a chunk read for a list or a lookup holds (`keys` and `errors` decide whether `data` is decoded at all). */
export type ChunkRead = Pick<ChunkRecord, "id" | "account_id" | "minute" | "rows" | "errors" | "keys" | "data">;

export const chunkRows = (chunk: Pick<ChunkRecord, "account_id" | "minute" | "data">): RequestLogRow[] =>
  unpack(chunk.account_id, Number(chunk.minute), chunk.data);

/** The bounds on chunk ids (newest request) and first ids that a list's filter and cursor allow. */
export function chunkBounds(filter: RequestFilter, before?: RequestCursor): { idFrom: string | null; idBelow: string | null; firstBelow: string | null } {
  const below = [filter.to === undefined ? null : idBefore(filter.to), before?.id ?? null].filter((id): id is string => id !== null);
  const firstBelow = below.length ? below.reduce((x, y) => (x < y ? x : y)) : null;
  return {
    idFrom: filter.from === undefined ? null : idBefore(filter.from),
    // A chunk holding a request older than firstBelow began less than a minute before it.
    idBelow: firstBelow === null ? null : idBefore(idTime(firstBelow) + CHUNK_SPAN_MS + 1),
    firstBelow,
  };
}

/** Whether a chunk can hold a request the filter keeps, read from its summary only. */
function mayMatch(chunk: ChunkRead, filter: RequestFilter): boolean {
  if (filter.status && filter.status.min >= 400 && chunk.errors === 0) return false;
  if (filter.status && filter.status.max < 400 && chunk.errors === chunk.rows) return false;
  if (filter.errorType !== undefined && chunk.errors === 0) return false;
  if (filter.keyId !== undefined && !(JSON.parse(chunk.keys) as [string | null][]).some(([key]) => key === filter.keyId)) return false;
  return true;
}

function matches(row: RequestLogRow, filter: RequestFilter, before?: RequestCursor): boolean {
  if (filter.status && (row.status < filter.status.min || row.status > filter.status.max)) return false;
  if (filter.errorType !== undefined && row.errorType !== filter.errorType) return false;
  if (filter.keyId !== undefined && row.keyId !== filter.keyId) return false;
  if (filter.path !== undefined && row.path !== filter.path) return false;
  if (filter.from !== undefined && row.time < filter.from) return false;
  if (filter.to !== undefined && row.time >= filter.to) return false;
  return before === undefined || row.id < before.id;
}

const newestFirst = (x: RequestLogRow, y: RequestLogRow) => (x.id < y.id ? 1 : x.id > y.id ? -1 : 0);

/**
 * Merges chunks handed to it newest chunk first (by their newest request) into the filtered requests, newest
 * first, at most `limit`. Chunks of several processes overlap in time: a request is handed out only once every
 * chunk that could hold a newer one has been read, that is once the next chunk's newest request is older than it.
 */
export class ChunkMerger {
  private readonly out: RequestLogRow[] = [];
  private pool: RequestLogRow[] = [];

  constructor(
    private readonly filter: RequestFilter,
    private readonly limit: number,
    private readonly before?: RequestCursor,
  ) {}

  /** Takes the next chunk; true once the page is full (read no more). */
  add(chunk: ChunkRead): boolean {
    this.release(chunk.id);
    if (this.out.length >= this.limit) return true;
    if (!mayMatch(chunk, this.filter)) return false;
    for (const row of chunkRows(chunk)) if (matches(row, this.filter, this.before)) this.pool.push(row);
    return false;
  }

  /** The page, once the chunks ran out or add said it was full. */
  finish(): RequestLogRow[] {
    this.release(null);
    return this.out.slice(0, this.limit);
  }

  private release(above: string | null): void {
    this.pool.sort(newestFirst);
    const cut = above === null ? -1 : this.pool.findIndex((row) => row.id <= above);
    const ready = cut === -1 ? this.pool.length : cut;
    this.out.push(...this.pool.slice(0, ready));
    this.pool = this.pool.slice(ready);
  }
}

/** Per key and hour, from chunks' minutes and key counts (a chunk lies within one minute, so within one hour). */
export function foldKeyHours(chunks: Iterable<Pick<ChunkRecord, "minute" | "keys">>): KeyHour[] {
  const hours = new Map<string, KeyHour>();
  for (const chunk of chunks) {
    const hour = Math.floor(Number(chunk.minute) / HOUR) * HOUR;
    for (const [keyId, requests, errors] of JSON.parse(chunk.keys) as [string | null, number, number][]) {
      const at = `${keyId ?? ""} ${hour}`;
      const sum = hours.get(at);
      if (sum) {
        sum.requests += requests;
        sum.errors += errors;
      } else hours.set(at, { keyId, hour, requests, errors });
    }
  }
  return [...hours.values()];
}
