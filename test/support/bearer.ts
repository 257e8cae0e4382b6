/** A request's options carrying an API key as a v2 bearer token. */
export const bearer = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });

/** A v2 request with a bearer key and, when given, a JSON body. */
export const bearerJson = (key: string, method: string, body?: unknown): RequestInit => ({
  method,
  headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
  body: body === undefined ? undefined : JSON.stringify(body),
});
