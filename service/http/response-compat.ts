/**
 * @hono/node-server replaces `globalThis.Response` with a lightweight subclass-like class (for speed), but
 * the statics it inherits (`Response.json`, `Response.redirect`) still build native Responses, which fail
 * `instanceof Response` against the replaced global. Next.js route handlers in the same process (start/one-process.ts)
 * are checked with exactly that (`No response is returned from route handler … received 'Response'`), so
 * every `return Response.json(…)` answered 500. This makes those statics return the global class's own
 * instances. Idempotent; a no-op when the global Response was not replaced.
 */
const PATCHED = Symbol.for("sharecount.responseStaticsPatched");

type ResponseClass = typeof Response & { [PATCHED]?: true };

export function alignResponseStatics(): void {
  const Current = globalThis.Response as ResponseClass;
  const Native = Object.getPrototypeOf(Current) as typeof Response | null;
  // Only the lightweight class: a function whose prototype parent is the native Response.
  if (Current[PATCHED] || typeof Native !== "function" || typeof Native.json !== "function" || Native === Function.prototype) return;
  Object.defineProperty(Current, "json", {
    configurable: true,
    writable: true,
    value: (data: unknown, init?: ResponseInit): Response => {
      const native = Native.json(data, init);
      return new Current(native.body, native);
    },
  });
  Object.defineProperty(Current, "redirect", {
    configurable: true,
    writable: true,
    value: (url: string | URL, status?: number): Response => {
      const native = Native.redirect(url, status);
      return new Current(null, native);
    },
  });
  Object.defineProperty(Current, PATCHED, { value: true });
}
