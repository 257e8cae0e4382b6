import { randomBytes } from "node:crypto";

/**
 * The headers every dashboard response carries. Scripts run only with this response's nonce (Next.js puts it on
 * its own scripts, reading it from the request's Content-Security-Policy header) or when loaded by such a
 * script ('strict-dynamic': the chunks a page loads later); no page may be framed, so a click on "Roll key" or
 * "Sign out everywhere else" is always the user's own.
 */

/** Where sign-in forms may send the browser: this site, and the sign-in providers it redirects to. */
export interface PolicyOptions {
  formActionOrigins: readonly string[];
}

export function newNonce(): string {
  return randomBytes(16).toString("base64");
}

export function contentSecurityPolicy(nonce: string, options: PolicyOptions): string {
  return [
    "default-src 'self'",
    // 'self' only counts for browsers without 'strict-dynamic' (CSP level 2).
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    // React and the chart set style attributes, which a nonce cannot cover.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    `form-action ${["'self'", ...options.formActionOrigins].join(" ")}`,
    "frame-ancestors 'none'",
  ].join("; ");
}

export function securityHeaders(csp: string): Record<string, string> {
  return {
    "Content-Security-Policy": csp,
    // For browsers that predate frame-ancestors.
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
  };
}
