import Papa from "papaparse";
import { parseCountUrl } from "../../../lib/urls/count-url.ts";
import type { UrlRule } from "../../../lib/urls/user-url.ts";
import { UrlListReader, type WhitelistRule } from "../../../lib/bulk/url-list.ts";

export type { WhitelistRule } from "../../../lib/bulk/url-list.ts";

/**
 * Reads a bulk job's URLs the way the API will (its line rule, url-list.ts), so the dashboard can show what
 * will be counted before anything is uploaded. Pure; runs in the browser.
 */

/** `lines`: one URL per line (.txt files and pasted text); `csv`: a spreadsheet export. */
export type UrlListFormat = "lines" | "csv";

export interface InvalidEntry {
  /** 1-based line (or CSV row) number, to find it in the file. */
  line: number;
  value: string;
  reason: string;
}

export interface UrlList {
  /** Distinct valid URLs, as written (trimmed), in file order: what the job is submitted with. */
  urls: string[];
  invalid: InvalidEntry[];
  /** Repeats of a valid URL after normalization (`HTTPS://Example.com/#top` repeats `https://example.com/`). */
  duplicates: number;
  /** Distinct valid URLs the account's enforced whitelist refuses: the API would drop them. */
  outsideWhitelist: number;
}

interface Entry {
  line: number;
  value: string;
}

export function formatOfFile(fileName: string): UrlListFormat {
  return /\.csv$/i.test(fileName) ? "csv" : "lines";
}

const stripBom = (text: string) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

function lineEntries(text: string): Entry[] {
  return text.split(/\r\n|\r|\n/).map((value, index) => ({ line: index + 1, value }));
}

/**
 * The URL column of a CSV: a header cell named `url` picks its column; otherwise the first column. The first
 * row is a header when none of its cells is a URL, so a header-less list of URLs loses no row.
 */
function csvEntries(text: string, rule: UrlRule): Entry[] {
  const rows = Papa.parse<string[]>(text, { header: false }).data;
  const first = rows[0] ?? [];
  const hasHeader = first.length > 0 && !first.some((cell) => rule(cell).ok);
  const named = hasHeader ? first.findIndex((cell) => cell.trim().toLowerCase() === "url") : -1;
  const column = Math.max(named, 0);
  const entries: Entry[] = [];
  rows.forEach((row, index) => {
    if (hasHeader && index === 0) return;
    entries.push({ line: index + 1, value: row[column] ?? "" });
  });
  return entries;
}

/** `rule`: a bulk job's (the default), or parseUserUrl for URLs to track. */
export function parseUrlList(text: string, format: UrlListFormat, whitelist?: WhitelistRule | null, rule: UrlRule = parseCountUrl): UrlList {
  const body = stripBom(text);
  const entries = format === "csv" ? csvEntries(body, rule) : lineEntries(body);
  const reader = new UrlListReader(whitelist ?? null, rule);
  const list: UrlList = { urls: [], invalid: [], duplicates: 0, outsideWhitelist: 0 };
  for (const entry of entries) {
    const verdict = reader.read(entry.value);
    if (verdict.kind === "invalid") list.invalid.push({ line: entry.line, value: verdict.value, reason: verdict.reason });
    else if (verdict.kind === "duplicate") list.duplicates++;
    else if (verdict.kind === "outside_whitelist") list.outsideWhitelist++;
    else if (verdict.kind === "accepted") list.urls.push(verdict.url);
  }
  return list;
}
