import "server-only";
import NextAuth from "next-auth";
import GitHub from "next-auth/providers/github";
import Google from "next-auth/providers/google";
import { dashboard } from "../context.ts";
import { log } from "../../../lib/log/log.ts";
import { PROVIDER_VERIFIED, sharecountAdapter } from "./adapter.ts";

export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 3600;

/**
 * Auth.js with database sessions: every signed-in browser is a `session` row, so signing out, revoking a
 * session and "sign out everywhere else" take effect on the next request. Password sign-in creates its
 * rows through the same adapter (see password.ts); GitHub and Google switch on when their env vars are set.
 */
export const { handlers, auth, signIn, signOut } = NextAuth(() => {
  const context = dashboard();
  const { env } = context;
  const providers = [];
  if (env.AUTH_GITHUB_ID && env.AUTH_GITHUB_SECRET) {
    providers.push(GitHub({ clientId: env.AUTH_GITHUB_ID, clientSecret: env.AUTH_GITHUB_SECRET }));
  }
  if (env.AUTH_GOOGLE_ID && env.AUTH_GOOGLE_SECRET) {
    providers.push(
      Google({
        clientId: env.AUTH_GOOGLE_ID,
        clientSecret: env.AUTH_GOOGLE_SECRET,
        // Auth.js's own profile, and whether Google verified the address (its ID token's email_verified): a new
        // account's address it vouches for needs no link of ours. GitHub's profile says nothing of the kind, so a
        // GitHub sign-up gets the link.
        profile: (profile) => {
          const user = { id: profile.sub, name: profile.name, email: profile.email, image: profile.picture };
          return Object.assign(user, { [PROVIDER_VERIFIED]: profile.email_verified === true });
        },
      }),
    );
  }
  return {
    adapter: sharecountAdapter(context),
    providers,
    secret: context.authSecret,
    trustHost: true,
    session: { strategy: "database", maxAge: SESSION_MAX_AGE_SECONDS, updateAge: 24 * 3600 },
    pages: { signIn: "/sign-in", error: "/sign-in" },
    // Auth.js's own errors (a sign-in with an unknown provider, a bad callback) as the service's log lines.
    logger: {
      error: (error: Error) => log.warn({ event: "auth_error", err: error }),
      warn: (code: string) => log.warn({ event: "auth_warning", code }),
    },
    callbacks: {
      // Where Auth.js sends the browser after signing in or out (a posted callbackUrl): a path on this site or a
      // URL of this origin, and home otherwise. Auth.js's own version throws on one that is no URL, a 500.
      redirect({ url, baseUrl }) {
        if (url.startsWith("/") && !url.startsWith("//") && !url.includes("\\")) return `${baseUrl}${url}`;
        return URL.parse(url)?.origin === baseUrl ? url : baseUrl;
      },
      // What GET /api/auth/session answers any script on the page: Auth.js hands over the whole session and
      // account rows (session token, password hash, the key's hash and encrypted copy), so pick what a
      // browser may know. The server finds the account from the session row itself (current-account.ts).
      session({ session, user }) {
        return { user: { email: user.email }, expires: session.expires };
      },
    },
  };
});

/** Names of the configured sign-in providers, for the sign-in page's buttons. */
export function oauthProviders(): { id: "github" | "google"; name: string }[] {
  const { env } = dashboard();
  return [
    ...(env.AUTH_GITHUB_ID && env.AUTH_GITHUB_SECRET ? [{ id: "github" as const, name: "GitHub" }] : []),
    ...(env.AUTH_GOOGLE_ID && env.AUTH_GOOGLE_SECRET ? [{ id: "google" as const, name: "Google" }] : []),
  ];
}
