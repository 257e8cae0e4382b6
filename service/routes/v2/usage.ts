import type { ApiDeps } from "../../api-deps.ts";
import { send } from "../../http/respond.ts";
import { validQuery } from "../../http/validate.ts";
import { usageDays, usageRange } from "../../quota/usage.ts";
import { usageQuerySchema } from "../../../lib/v2/usage-schemas.ts";
import { v2Endpoint } from "./v2-endpoint.ts";

/** GET /v2/usage: the account's queries served and refused per quota day (no quota is spent). */
export const v2UsageHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, "account:read", async (account, { params }) => {
    const query = validQuery(usageQuerySchema, params);
    const range = usageRange(deps.clock.today().day, query.from, query.to);
    await deps.quota.settle();
    return send(200, { days: await usageDays(deps.store.usage, account.id, range) });
  });
