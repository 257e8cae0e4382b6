import type { FacebookEngagement, ObservedValues } from "./observed.ts";

/**
 * URL variants: the forms one page is known under after a move to https or a change of `www`. The combined
 * count of a tracked URL sums what each of its forms (its variants and its aliases) reports, with one rule:
 * forms whose Facebook engagement is identical in the same refresh are counted once, because Facebook
 * often folds the forms of a page into one object and reports that object's counts for each of them.
 * Pinterest counts each form on its own and is summed as is.
 */

const IP_HOST = /^(\[.*\]|[\d.]+)$/;

/**
 * The four scheme and `www` forms of a normalized http(s) URL, the URL itself first: http and https, with
 * and without `www.` at the front of the host. An IP address has only the two schemes.
 */
export function variantsOf(url: string): string[] {
  const parsed = new URL(url);
  const bare = parsed.hostname.replace(/^www\./, "");
  const hosts = IP_HOST.test(parsed.hostname) ? [parsed.hostname] : [bare, `www.${bare}`];
  const forms = [url];
  for (const protocol of ["https:", "http:"]) {
    for (const host of hosts) {
      const form = new URL(url);
      form.protocol = protocol;
      form.hostname = host;
      if (!forms.includes(form.href)) forms.push(form.href);
    }
  }
  return forms;
}

/** The forms one account counts for a tracked URL: the URL, its variants if the account counts them, its aliases. */
export function formsOf(url: string, settings: { countVariants: boolean; aliases: readonly string[] }): string[] {
  return [...new Set([url, ...(settings.countVariants ? variantsOf(url) : []), ...settings.aliases])];
}

export const sameEngagement = (a: FacebookEngagement, b: FacebookEngagement) =>
  a.total_count === b.total_count &&
  a.comment_count === b.comment_count &&
  a.reaction_count === b.reaction_count &&
  a.share_count === b.share_count &&
  a.comment_plugin_count === b.comment_plugin_count;

/** The combined values of a URL's forms observed in one refresh (see the rule above). */
export function combine(forms: readonly ObservedValues[]): ObservedValues {
  const facebook: FacebookEngagement[] = [];
  let pinterest: number | undefined;
  for (const form of forms) {
    if (form.Facebook && !facebook.some((seen) => sameEngagement(seen, form.Facebook!))) facebook.push(form.Facebook);
    if (form.Pinterest !== undefined) pinterest = (pinterest ?? 0) + form.Pinterest;
  }
  const combined: ObservedValues = {};
  if (facebook.length > 0) {
    combined.Facebook = facebook.reduce((sum, e) => ({
      total_count: sum.total_count + e.total_count,
      comment_count: sum.comment_count + e.comment_count,
      reaction_count: sum.reaction_count + e.reaction_count,
      share_count: sum.share_count + e.share_count,
      comment_plugin_count: sum.comment_plugin_count + e.comment_plugin_count,
    }));
  }
  if (pinterest !== undefined) combined.Pinterest = pinterest;
  return combined;
}
