import { parseCountUrl } from "../../../lib/urls/count-url.ts";
import { admits } from "../../../lib/whitelist/domains.ts";
import { variantsOf } from "../../../lib/history/variants.ts";
import type { ApiDeps } from "../../api-deps.ts";
import { paidQuery } from "../../counts/count-url.ts";
import { countingRefusals } from "../../quota/refusals.ts";
import { apiErrors } from "../../http/errors.ts";
import { send } from "../../http/respond.ts";
import { validQuery } from "../../http/validate.ts";
import { unavailability, whyNot } from "../../networks/health.ts";
import { allFresh, combinedNetworks, lookupNetworks } from "../../v2/network-objects.ts";
import { countsQuerySchema } from "../../../lib/v2/schemas.ts";
import { iso, networksAsked, v2Endpoint } from "./v2-endpoint.ts";
import { spendQuota } from "../../requests/attribution.ts";

/**
 * GET /v2/counts: one query of the daily quota, with each network's status, and why where it is not ok; only
 * the networks asked are called. A network named that this service does not ask is answered unavailable
 * (not_configured), not refused: a client naming all eight works against any deployment. With variants, the
 * forms' combined counts too (forms off an enforced whitelist are not asked).
 */
export const v2CountsHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, "counts:read", countingRefusals(deps, async (account, { req, params }) => {
    const query = validQuery(countsQuerySchema, params);
    const parsed = parseCountUrl(query.url);
    if (!parsed.ok) throw apiErrors.invalidUrl(parsed.reason);
    const wanted = query.networks ?? networksAsked(deps, account, undefined);
    const target = { host: parsed.url.hostname, normalized: parsed.normalized };
    const forms = query.variants
      ? variantsOf(parsed.normalized).filter((form) => admits(account.whitelist, new URL(form).hostname))
      : [parsed.normalized];
    const { result: lookups, remaining } = await paidQuery(deps, account, target, "1.1", () =>
      Promise.all(forms.map((form) => deps.counts.lookupNetworks(form, wanted))),
    );
    spendQuota(req, 1);
    const headers = { "X-Quota-Remaining": String(remaining), ...(deps.sandbox ? { "X-Sharecount-Sandbox": "1" } : {}) };
    const main = lookups[0]!;
    // Read after the lookup, whose failures it reflects; only when some network needs a reason (with Redis it is round trips).
    const states = lookups.every((lookup) => allFresh(lookup, wanted)) ? new Map() : unavailability(await deps.networkHealth(), "live");
    const why = whyNot(states, "upstream_error");
    if (!query.variants) {
      return send(200, { url: parsed.normalized, fetched_at: iso(main.fetchedAt), networks: lookupNetworks(main, wanted, why) }, { headers });
    }
    return send(
      200,
      {
        url: parsed.normalized,
        fetched_at: iso(Math.min(...lookups.map((l) => l.fetchedAt))),
        networks: combinedNetworks(lookups, wanted, why),
        variants: forms.map((form, i) => ({ url: form, networks: lookupNetworks(lookups[i]!, wanted, why) })),
      },
      { headers },
    );
  }));

/** GET /v2/networks: every network's state, calls and budget (no quota is spent). */
export const v2NetworksHandler = (deps: ApiDeps) => v2Endpoint(deps, "account:read", async () => send(200, { networks: await deps.networkHealth() }));
