/** A request's options carrying an API key as a v2 bearer token. */
export const bearer = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });
