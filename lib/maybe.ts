/**
 * A value now, or one still to come. The cached count query is answered from memory: written over Maybe, each
 * of its stages runs at once when the one before had its value, so a cache hit costs no promise per stage
 * (with Next.js's AsyncLocalStorage in the process, every promise also pays for its async hooks).
 */
export type Maybe<T> = T | Promise<T>;

/** Whether `value` is still to come: a promise, or any thenable (a Prisma query is one without being a Promise). */
export function isPending<T>(value: Maybe<T> | PromiseLike<T>): value is Promise<T> | PromiseLike<T> {
  return typeof (value as PromiseLike<T> | null | undefined)?.then === "function";
}

/** `next` applied to `value`: at once when it is here, else when it comes. */
export function andThen<T, R>(value: Maybe<T>, next: (value: T) => Maybe<R>): Maybe<R> {
  // Promise.resolve returns a native promise itself: no extra promise for the usual case.
  return isPending(value) ? Promise.resolve(value).then(next) : next(value);
}

/** What `run` gives, or what `recover` makes of what it throws, now or later. */
export function recovering<T>(run: () => Maybe<T>, recover: (error: unknown) => Maybe<T>): Maybe<T> {
  let result: Maybe<T>;
  try {
    result = run();
  } catch (error) {
    return recover(error);
  }
  return isPending(result) ? Promise.resolve(result).catch(recover) : result;
}
