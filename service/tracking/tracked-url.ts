import { formsOf, sameEngagement, variantsOf } from "../../lib/history/variants.ts";
import { parseCountUrl } from "../../lib/urls/count-url.ts";
import type { AccountContext } from "../../lib/store/accounts.ts";
import { firstObservedAt, type HistoryPoint } from "../../lib/store/history.ts";
import { hourOf } from "../../lib/history/observed.ts";
import type { ApiDeps } from "../api-deps.ts";
import { ApiError, apiErrors } from "../http/errors.ts";
import { trackedUrlId, trackedUrlNotFound } from "./track-urls.ts";
import { accessSince } from "../history/read-history.ts";
import { assertWhitelisted } from "../accounts/whitelist.ts";
import { quotaTooLow } from "./add-tracked.ts";

export const MAX_ALIASES = 10;

export type FormKind = "url" | "variant" | "alias";

export interface FormBreakdown {
  url: string;
  kind: FormKind;
  /** Its latest point, or null when it was never counted. */
  latest: HistoryPoint | null;
  /** False when an earlier form had the same Facebook engagement in that refresh (counted once). */
  facebookCounted: boolean;
}

/**
 * One tracked URL as the account counts it: its row, and each form (the URL, its variants if the account
 * counts them, its aliases) with its latest counts, marking the forms whose Facebook engagement was folded.
 */
export async function trackedUrlDetail(deps: Pick<ApiDeps, "store" | "clock">, account: AccountContext, input: string) {
  // Points are taken at the time they are recorded: none is later than an hour from now.
  const now = deps.clock.now() + 3_600_000;
  const id = await trackedUrlId(deps, account, input);
  const { tracked, history } = deps.store;
  const row = await tracked.get(account.id, id);
  const me = ((await tracked.trackersOf([id])).get(id) ?? []).find((t) => t.accountId === account.id);
  if (!row || !me) throw trackedUrlNotFound();
  const variants = new Set(variantsOf(row.url));
  const forms = formsOf(row.url, me);
  const isAlias = (form: string) => me.aliases.includes(form) && !variants.has(form);
  // What others observed before this account came to the URL (to an alias: since it was set) is not shown.
  const since = (await accessSince(deps, account.id, [row])).get(id) ?? row.addedAt;
  const latest = await Promise.all(
    forms.map(async (form) => {
      const formId = await history.idOf(form);
      if (formId === null) return null;
      // An alias set before aliases were noted has no time of its own: the URL's stands for it.
      const formSince = isAlias(form) ? Math.max(since, (await history.accessSince(account.id, [formId])).get(formId) ?? since) : since;
      const point = await history.pointAtOrBefore(formId, now);
      return point && firstObservedAt(point) >= formSince ? point : null;
    }),
  );
  // One refresh asks every form within the same hour: that is what "the same refresh" means here.
  const sameRefresh = (x: HistoryPoint, y: HistoryPoint) => hourOf(x.at) === hourOf(y.at);
  const breakdown: FormBreakdown[] = forms.map((form, i) => {
    const facebook = latest[i]?.values.Facebook;
    const folded =
      facebook !== undefined &&
      latest
        .slice(0, i)
        .some((earlier) => earlier?.values.Facebook && sameEngagement(earlier.values.Facebook, facebook) && sameRefresh(earlier, latest[i]!));
    return {
      url: form,
      kind: form === row.url ? "url" : isAlias(form) ? "alias" : "variant",
      latest: latest[i] ?? null,
      facebookCounted: !folded,
    };
  });
  return { row, countVariants: me.countVariants, forms: breakdown };
}

/**
 * Sets the URL's aliases (its older addresses), each a countable URL other than the URL itself, within an enforced
 * whitelist. Each alias new to the URL is counted from now on like a tracked URL: it spends one query of today's
 * quota (all or none), and the account's history of it starts now. `spent`: the queries it took.
 */
export async function setAliases(
  deps: Pick<ApiDeps, "store" | "clock" | "quota" | "history">,
  account: AccountContext,
  input: string,
  aliases: readonly string[],
) {
  const id = await trackedUrlId(deps, account, input);
  const own = (await deps.store.tracked.get(account.id, id))!.url;
  // A URL tracked before the whitelist was enforced keeps its aliases, but gets no new ones off the list.
  assertWhitelisted(account, new URL(own).hostname);
  const normalized = new Set<string>();
  for (const alias of aliases) {
    const parsed = parseCountUrl(alias);
    if (!parsed.ok) throw apiErrors.invalidUrl(`alias ${JSON.stringify(alias)}: ${parsed.reason}`);
    assertWhitelisted(account, parsed.url.hostname);
    if (parsed.normalized !== own) normalized.add(parsed.normalized);
  }
  if (normalized.size > MAX_ALIASES) {
    throw new ApiError("invalid_parameter", 400, `A tracked URL has at most ${MAX_ALIASES} aliases.`);
  }
  const list = [...normalized];
  const current = (await deps.store.tracked.get(account.id, id))?.aliases ?? [];
  // Unchanged aliases are not stored again: storing makes the URL due for a refresh.
  const unchanged = current.length === list.length && list.every((alias) => current.includes(alias));
  if (unchanged) return { url: own, aliases: list, spent: 0 };
  const added = list.filter((alias) => !current.includes(alias));
  const { day, resetsAt } = deps.clock.today();
  const { dailyQuota } = account.plan;
  if (added.length > 0 && (await deps.quota.reserveUpTo(account.id, day, dailyQuota, added.length, added.length)) === 0) {
    const left = Math.max(0, dailyQuota - (await deps.quota.used(account.id, day)));
    throw quotaTooLow({ one: "alias", many: "aliases" }, added.length, left, resetsAt, deps.clock.timeZone);
  }
  const at = deps.clock.now();
  if (!(await deps.store.tracked.setAliases(account.id, id, list, at))) {
    await deps.quota.releaseMany(account.id, day, added.length);
    throw trackedUrlNotFound();
  }
  await deps.history.noteQueried(account.id, added, at);
  return { url: own, aliases: list, spent: added.length };
}
