import { UnavailableError } from "../errors.ts";

/** The database could not be reached or used (or the store is closed): a 503 to clients, a retry to workers; never a bug. */
export class StoreUnavailableError extends UnavailableError {
  static override readonly kind: string = "StoreUnavailableError";

  constructor(cause: unknown) {
    super(`the database is unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/**
 * The store with every method's failures sorted at its edge: those `isOutage` recognizes (the driver's own
 * errors for a lost connection or a closed database) are thrown as StoreUnavailableError, anything else as is.
 */
export function withOutagesTyped<S extends object>(store: S, isOutage: (error: unknown) => boolean): S {
  const typed = (error: unknown) => (isOutage(error) && !(error instanceof StoreUnavailableError) ? new StoreUnavailableError(error) : error);
  const guarded: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(store)) {
    if (typeof value !== "function") {
      guarded[name] = value;
      continue;
    }
    const method = value as (...args: unknown[]) => unknown;
    guarded[name] = (...args: unknown[]) => {
      let result: unknown;
      try {
        result = method.apply(store, args);
      } catch (error) {
        throw typed(error);
      }
      return result instanceof Promise
        ? result.catch((error: unknown) => {
            throw typed(error);
          })
        : result;
    };
  }
  return guarded as S;
}
