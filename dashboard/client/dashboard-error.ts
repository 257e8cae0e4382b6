import { SharecountError, type ErrorCode } from "../../lib/errors.ts";

/**
 * An error answer of a dashboard route, `{ error, message }` with its status and, when it says when to try
 * again, `retryAt`: thrown by the routes, and by the pages' fetchJson when a route answered one.
 */
export class DashboardError extends SharecountError {
  static override readonly kind: string = "DashboardError";

  constructor(
    code: ErrorCode,
    readonly status: number,
    message: string,
    readonly retryAt: string | null = null,
  ) {
    super(code, message);
  }

  /** Whether trying again now may succeed: the service failed, not the request (a used-up quota, an invalid URL). */
  get transient(): boolean {
    return this.status >= 500;
  }
}
