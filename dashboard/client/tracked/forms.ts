import type { Networks, TrackedForm } from "./types.ts";

type Facebook = NonNullable<Networks["facebook"]>;

const ENGAGEMENT = ["total_count", "comment_count", "reaction_count", "share_count", "comment_plugin_count"] as const;
const HOUR = 3_600_000;

const sameEngagement = (a: Facebook, b: Facebook) => ENGAGEMENT.every((field) => a[field] === b[field]);
const hourOf = (at: string | null) => (at === null ? null : Math.floor(Date.parse(at) / HOUR));

/**
 * For a form whose Facebook engagement was counted once (`facebook_counted` false): the earlier form it was
 * counted with, by the API's rule (the same engagement, observed in the same refresh, i.e. the same hour).
 */
export function countedWith(forms: readonly TrackedForm[], index: number): string | null {
  const form = forms[index];
  const facebook = form?.networks.facebook;
  if (!form || form.facebook_counted || !facebook || facebook.status === "unavailable") return null;
  const earlier = forms
    .slice(0, index)
    .find(
      (other) =>
        other.networks.facebook !== undefined &&
        other.networks.facebook.status !== "unavailable" &&
        sameEngagement(other.networks.facebook, facebook) &&
        hourOf(other.observed_at) === hourOf(form.observed_at),
    );
  return earlier?.url ?? null;
}
