import { OBSERVED_NETWORKS, type FacebookEngagement, type ObservedNetwork, type ObservedValues } from "./observed.ts";

/**
 * URL variants: the forms one page is known under after a move to https or a change of `www`. The combined
 * count of a tracked URL sums what each of its forms (its variants and its aliases) reports, number by
 * number, with one rule for networks that may report the same thing for several forms:
 * - Facebook: forms whose engagement is identical in the same refresh are counted once, because Facebook
 *   often folds the forms of a page into one object and reports that object's counts for each of them.
 * - Hacker News and Bluesky: the same, since they find items by a search that may return the same stories or
 *   posts for several forms of one page (Hacker News matches http and https, with and without `www`, alike).
 * - Pinterest, Reddit, VK, OK.ru and Tumblr count each exact URL on their own: summed as is.
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

/** A network's value: one number, or named numbers (the same names in every value of one network). */
type Numbers = number | Readonly<Record<string, number>>;

/** Whether two values of one network hold the same numbers. */
function sameValues(a: Numbers, b: Numbers): boolean {
  if (typeof a === "number") return a === b;
  return Object.keys(a).every((field) => a[field] === (b as Record<string, number>)[field]);
}

export const sameEngagement: (a: FacebookEngagement, b: FacebookEngagement) => boolean = sameValues;

/** Two values of one network added number by number. */
function sum(a: Numbers, b: Numbers): Numbers {
  if (typeof a === "number") return a + (b as number);
  return Object.fromEntries(Object.entries(a).map(([field, n]) => [field, n + (b as Record<string, number>)[field]!]));
}

/** How each network's forms combine (see the rule above): identical values counted once, or each form summed. */
const FORMS_COUNTED: Record<ObservedNetwork, "once-if-identical" | "each"> = {
  Facebook: "once-if-identical",
  Pinterest: "each",
  reddit: "each",
  hackernews: "once-if-identical",
  bluesky: "once-if-identical",
  vk: "each",
  ok: "each",
  tumblr: "each",
};

/** The combined values of a URL's forms observed in one refresh (see the rule above). */
export function combine(forms: readonly ObservedValues[]): ObservedValues {
  const combined: Partial<Record<ObservedNetwork, Numbers>> = {};
  for (const network of OBSERVED_NETWORKS) {
    const values = forms.flatMap((form): Numbers[] => (form[network] === undefined ? [] : [form[network]]));
    const counted = FORMS_COUNTED[network] === "each" ? values : values.filter((value, i) => values.findIndex((seen) => sameValues(seen, value)) === i);
    if (counted.length > 0) combined[network] = counted.reduce(sum);
  }
  // Each network's sum has the shape of its forms' values.
  return combined as ObservedValues;
}
