import { formsOf, sameEngagement, variantsOf } from "../../lib/history/variants.ts";
import { parseCountUrl } from "../../lib/urls/count-url.ts";
import type { AccountContext } from "../../lib/store/accounts.ts";
import type { HistoryPoint } from "../../lib/store/history.ts";
import { hourOf } from "../../lib/history/observed.ts";
import type { ApiDeps } from "../api-deps.ts";
import { ApiError, apiErrors } from "../http/errors.ts";
import { trackedUrlId, trackedUrlNotFound } from "./track-urls.ts";
import { accessSince } from "../history/read-history.ts";
import { assertWhitelisted } from "../accounts/whitelist.ts";

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
  // What others observed of its forms before this account came to the URL is not shown.
  const since = (await accessSince(deps, account.id, [row])).get(id) ?? row.addedAt;
  const latest = await Promise.all(
    forms.map(async (form) => {
      const formId = await history.idOf(form);
      const point = formId === null ? null : await history.pointAtOrBefore(formId, now);
      return point && point.at >= since ? point : null;
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
      kind: form === row.url ? "url" : me.aliases.includes(form) && !variants.has(form) ? "alias" : "variant",
      latest: latest[i] ?? null,
      facebookCounted: !folded,
    };
  });
  return { row, countVariants: me.countVariants, forms: breakdown };
}

/** Sets the URL's aliases (its older addresses), each a countable URL other than the URL itself. */
export async function setAliases(deps: Pick<ApiDeps, "store" | "clock">, account: AccountContext, input: string, aliases: readonly string[]) {
  const id = await trackedUrlId(deps, account, input);
  const own = (await deps.store.tracked.get(account.id, id))!.url;
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
  if (!unchanged && !(await deps.store.tracked.setAliases(account.id, id, list, deps.clock.now()))) throw trackedUrlNotFound();
  return { url: own, aliases: list };
}
