import type { Context } from "hono";
import { apiErrors, toApiError } from "./errors.ts";
import { requestQuery, type QueryParams } from "./query.ts";
import { isValidCallback, sendError } from "./respond.ts";

/**
 * What an endpoint does with `callback`: answer as JSONP (the single-URL count endpoints), refuse it (GET
 * account and bulk endpoints: JSON only), or leave it be (a POST, which no script tag can send).
 */
export type JsonpPolicy = "answer" | "refuse" | "ignore";

export interface EndpointRequest {
  c: Context;
  params: QueryParams;
  /** The JSONP callback to answer with, under the "answer" policy. */
  callback: string | undefined;
}

/**
 * Every API endpoint: the query string parsed once, the JSONP policy applied, and whatever the answer throws
 * mapped to the API's error object (as JSONP when the answer would have been).
 */
export function endpoint(jsonp: JsonpPolicy, answer: (request: EndpointRequest) => Promise<Response>) {
  return async (c: Context): Promise<Response> => {
    const params = requestQuery(c.req.url);
    const requested = params.get("callback");
    let callback: string | undefined;
    if (requested !== undefined && requested !== "" && jsonp !== "ignore") {
      if (jsonp === "refuse") return sendError(apiErrors.jsonpNotSupported());
      if (!isValidCallback(requested)) return sendError(apiErrors.invalidCallback());
      callback = requested;
    }
    try {
      return await answer({ c, params, callback });
    } catch (error) {
      // A body answered before its end is read off and dropped by the server (front-door.ts).
      return sendError(toApiError(error), callback);
    }
  };
}
