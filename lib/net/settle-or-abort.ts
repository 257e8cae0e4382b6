import type { Dispatcher } from "undici";

/** Drops an answer nobody will read: its socket is freed, and a late error on it is not an unhandled one. */
export function discard(body: Dispatcher.ResponseData["body"]): void {
  body.on("error", () => {});
  body.destroy();
}

/**
 * The request's answer, or the signal's reason as soon as it aborts. undici applies an abort only once
 * connected: without this a slow DNS answer or connect outlasts the limit. An answer arriving after the abort
 * is discarded.
 */
export function settleOrAbort(pending: Promise<Dispatcher.ResponseData>, signal: AbortSignal): Promise<Dispatcher.ResponseData> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      reject(signal.reason);
      pending.then((late) => discard(late.body), () => {});
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    pending.then(
      (response) => {
        signal.removeEventListener("abort", onAbort);
        resolve(response);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
