import { openAccountExport } from "../../../lib/accounts/account-export.ts";
import { accountExportQuerySchema } from "../../../lib/v2/export-schemas.ts";
import type { ApiDeps } from "../../api-deps.ts";
import { ApiError, apiErrors } from "../../http/errors.ts";
import { send, type Answer, type StreamedBody } from "../../http/respond.ts";
import { validQuery } from "../../http/validate.ts";
import { v2Endpoint } from "./v2-endpoint.ts";

/** GET /v2/account/export: everything the account owns, as one JSON file written as it is read (no quota is spent). */
export const v2AccountExportHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, "account:write", async (account, { params }): Promise<Answer<StreamedBody>> => {
    validQuery(accountExportQuerySchema, params);
    await deps.quota.settle();
    const file = await openAccountExport(deps.store, account.id, deps.clock.now());
    if (file === "busy") throw new ApiError("export_in_progress", 429, "An export of this account is being written, or too many exports are: try again when it is done.");
    // Deleted between the key check and here: the key no longer names an account.
    if (!file) throw apiErrors.invalidApiKey();
    const { headers } = send(200, null);
    return {
      status: 200,
      headers: {
        ...headers,
        "Content-Disposition": `attachment; filename="${file.filename}"`,
        "Cache-Control": "no-store",
      },
      body: file.body,
    };
  });
