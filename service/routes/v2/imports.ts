import type { IncomingMessage } from "node:http";
import type { ApiDeps } from "../../api-deps.ts";
import { targetPath } from "../../http/paths.ts";
import { noContent, send } from "../../http/respond.ts";
import { cancelImport, importAnswer, importNotFound, readImport } from "../../imports/queue-import.ts";
import { v2Endpoint } from "./v2-endpoint.ts";

/** The import id of a `/v2/imports/{id}` request. */
function importIdOf(req: IncomingMessage): string {
  try {
    return decodeURIComponent(targetPath(req.url!).slice("/v2/imports/".length));
  } catch {
    throw importNotFound();
  }
}

/** GET /v2/imports/{id}: an import's progress (only the account's own). */
export const v2ImportHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, "tracked:read", async (account, { req }) => {
    return send(200, importAnswer(await readImport(deps, account, importIdOf(req))));
  });

/** DELETE /v2/imports/{id}: cancels a queued or running import (what it added stays), and stops reading a feed daily. */
export const v2CancelImportHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, "tracked:write", async (account, { req }) => {
    await cancelImport(deps, account, importIdOf(req));
    return noContent(204);
  });
