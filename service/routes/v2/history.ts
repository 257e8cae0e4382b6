import Papa from "papaparse";
import { historyCsvName } from "../../../lib/history/csv-name.ts";
import type { AccountContext } from "../../../lib/store/accounts.ts";
import type { ApiDeps } from "../../api-deps.ts";
import { dayRange, readHistory } from "../../history/read-history.ts";
import type { QueryParams } from "../../http/query.ts";
import { send } from "../../http/respond.ts";
import { validQuery } from "../../http/validate.ts";
import { csvCells, csvColumns, storedNetworks } from "../../v2/network-objects.ts";
import { historyQuerySchema } from "../../../lib/v2/schemas.ts";
import { iso, networksAsked, v2Endpoint } from "./v2-endpoint.ts";

/** A URL's history, with the networks the account shows (what its answers carry). */
async function historyOf(deps: ApiDeps, account: AccountContext, params: QueryParams) {
  const query = validQuery(historyQuerySchema, params);
  const range = dayRange(deps.clock.now(), query.from, query.to);
  return { interval: query.interval, shown: networksAsked(deps, account, undefined), ...(await readHistory(deps, account, query.url, range, query.interval)) };
}

/** GET /v2/history: the URL's points, hourly or daily. */
export const v2HistoryHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, "counts:read", async (account, { params }) => {
    const history = await historyOf(deps, account, params);
    return send(200, {
      url: history.url,
      interval: history.interval,
      points: history.points.map((point) => ({ t: iso(point.at), networks: storedNetworks(point.values, history.shown) })),
    });
  });

/** GET /v2/history.csv: the same points as CSV, one row per point, each with its URL (exports are often merged). */
export const v2HistoryCsvHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, "counts:read", async (account, { params }) => {
    const history = await historyOf(deps, account, params);
    const answer = send(200, null);
    const name = historyCsvName(history.url, history.interval);
    return {
      status: 200,
      headers: {
        ...answer.headers,
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="${name}"`,
      },
      body:
        Papa.unparse({
          fields: ["url", "t", ...csvColumns(history.shown)],
          data: history.points.map((point) => [history.url, new Date(point.at).toISOString(), ...csvCells(point.values, history.shown)]),
        }) + "\r\n",
    };
  });
