import type { IncomingMessage } from "node:http";
import { apiErrors, toApiError } from "./errors.ts";
import { requestQuery, type QueryParams } from "./query.ts";
import { isValidCallback, sendError, type Answer, type StreamedBody } from "./respond.ts";
import { noteErrorType } from "../requests/attribution.ts";
import { recovering, type Maybe } from "../../lib/maybe.ts";

/**
 * What an endpoint does with `callback`: answer as JSONP (the single-URL count endpoints), refuse it (GET
 * account and bulk endpoints: JSON only), or leave it be (a POST, which no script tag can send).
 */
export type JsonpPolicy = "answer" | "refuse" | "ignore";

export interface EndpointRequest {
  /** Node's request, its target as URL parsing reads it (see api-listener.ts). */
  req: IncomingMessage;
  params: QueryParams;
  /** The JSONP callback to answer with, under the "answer" policy. */
  callback: string | undefined;
}

/** An API endpoint: Node's request in, the answer out, at once when it was in memory (whoever routed the request writes it). */
export type Endpoint<Body extends string | StreamedBody = string> = (req: IncomingMessage) => Maybe<Answer<Body>>;

/**
 * Every API endpoint: the query string parsed once, the JSONP policy applied, and whatever the answer throws
 * mapped to the API's error object (as JSONP when the answer would have been).
 */
export function endpoint<Body extends string | StreamedBody = string>(
  jsonp: JsonpPolicy,
  answer: (request: EndpointRequest) => Maybe<Answer<Body>>,
  /** How the query string is read: v1's tolerant reading by default (see query.ts). */
  readQuery: (url: string) => QueryParams = requestQuery,
): Endpoint<Body | string> {
  return (req) => {
    let params: QueryParams;
    try {
      // v2's reading refuses a query string it cannot take at its word (a parameter sent twice).
      params = readQuery(req.url!);
    } catch (error) {
      return sendError(toApiError(error));
    }
    const requested = params.get("callback");
    let callback: string | undefined;
    if (requested !== undefined && requested !== "" && jsonp !== "ignore") {
      if (jsonp === "refuse") return sendError(apiErrors.jsonpNotSupported());
      if (!isValidCallback(requested)) return sendError(apiErrors.invalidCallback());
      callback = requested;
    }
    return recovering<Answer<Body | string>>(
      () => answer({ req, params, callback }),
      (error) => {
        // A body answered before its end is read off and dropped by the server (front-door.ts).
        const apiError = toApiError(error);
        noteErrorType(req, apiError.code);
        return sendError(apiError, callback);
      },
    );
  };
}
