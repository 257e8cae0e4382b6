import { parseCountUrl } from "../urls/count-url.ts";
import type { UrlRule } from "../urls/user-url.ts";
import { admits, type WhitelistRule } from "../whitelist/domains.ts";

/**
 * The one rule for the lines of a bulk job, whoever reads them: the API as the body arrives, and the dashboard
 * before anything is uploaded. A line is trimmed; blank lines are skipped; a valid URL counts once (after
 * normalization); an enforced whitelist drops URLs outside it. Pure and web-standard: it runs in the browser.
 */

export interface AcceptedUrl {
  /** As written (trimmed): the key of the job's results. */
  url: string;
  /** Normalized: what is counted. */
  countUrl: string;
  host: string;
}

export type { WhitelistRule };

export type LineVerdict =
  | { kind: "blank" }
  | { kind: "invalid"; value: string; reason: string }
  | { kind: "duplicate" }
  | { kind: "outside_whitelist" }
  | ({ kind: "accepted" } & AcceptedUrl);

export class UrlListReader {
  private readonly seen = new Set<string>();

  /**
   * `whitelist`: null while it is not known yet (the API before the key); the caller applies it later with `admits`.
   * `rule`: a bulk job's lines are count URLs; a list of URLs to track is read by parseUserUrl, as the API reads it.
   */
  constructor(
    private readonly whitelist: WhitelistRule | null,
    private readonly rule: UrlRule = parseCountUrl,
  ) {}

  read(line: string): LineVerdict {
    const value = line.trim();
    if (value.length === 0) return { kind: "blank" };
    const parsed = this.rule(value);
    if (!parsed.ok) return { kind: "invalid", value, reason: parsed.reason };
    if (this.seen.has(parsed.normalized)) return { kind: "duplicate" };
    this.seen.add(parsed.normalized);
    if (!admits(this.whitelist, parsed.url.hostname)) return { kind: "outside_whitelist" };
    return { kind: "accepted", url: value, countUrl: parsed.normalized, host: parsed.url.hostname };
  }
}
