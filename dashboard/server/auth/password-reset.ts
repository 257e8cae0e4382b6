import "server-only";
import { requestClient } from "../audit-source.ts";
import { normalizeEmail } from "../../../lib/accounts/email-address.ts";
import { PasswordReset, type ResetLink } from "../../../lib/accounts/password-reset.ts";
import { passwordProblem } from "../../../lib/accounts/password-rule.ts";
import { dashboard } from "../context.ts";
import { requestInfo } from "./password.ts";
import { rateLimiter, retryMinutes, takeFromLimits } from "./rate-limit.ts";

// Per address asked about: an inbox gets at most this many reset mails an hour, whoever asks.
const mailsPerAddress = () => rateLimiter("reset-mail-address", 3, 3600);
// Per client: how many addresses one network may ask about.
const requestsPerClient = () => rateLimiter("reset-request-client", 10, 3600);
// Per client, each look at or use of a link: tokens cannot be guessed, and this keeps anyone from trying.
const linkTriesPerClient = () => rateLimiter("reset-link-client", 20, 3600);

/** The domain module with the dashboard's database, outbox, public origin and time zone. */
export function passwordReset(): PasswordReset {
  const { prisma, outbox, mail, env, clock } = dashboard();
  return new PasswordReset({ prisma, outbox, linkOrigin: mail.linkOrigin, ttlMinutes: env.PASSWORD_RESET_TTL_MINUTES, timeZone: clock.timeZone });
}

/** How long a link works, for the pages' words. */
export function resetLinkMinutes(): number {
  return dashboard().env.PASSWORD_RESET_TTL_MINUTES;
}

/** `ok` is all a client learns of an address: whether it has an account, and whether its limit is spent, stay unsaid. */
export type ResetRequestAnswer = { ok: true } | { ok: false; error: string };

/**
 * The answer to "forgot password" comes no sooner than this after the request: writing a token and a mail
 * for an existing address takes a few milliseconds more than finding none, which a client timing the answers
 * could tell apart (the red team did, 79 times in 80). The row is still written before the answer, so a
 * process killed right after answering loses no mail.
 */
const ANSWER_FLOOR_MS = 400;

/**
 * "Forgot password" for `email`. Both limits are taken before the work. Past the address's limit nothing is
 * queued, but the answer is the same as ever; only the client's own limit is said.
 */
export async function requestPasswordReset(email: string): Promise<ResetRequestAnswer> {
  const started = performance.now();
  const { ip } = await requestInfo();
  const client = await takeFromLimits([[requestsPerClient(), ip]]);
  if (!client.ok) return { ok: false, error: `Too many requests from your network. Try again in ${retryMinutes(client.retryAfterMs)} minute(s).` };
  const address = await takeFromLimits([[mailsPerAddress(), normalizeEmail(email)]]);
  if (address.ok) await passwordReset().request(email, dashboard().clock.now());
  const left = started + ANSWER_FLOOR_MS - performance.now();
  if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
  return { ok: true };
}

/** Why a link cannot be used: its own state, or this client's tries are spent. */
export type LinkProblem = { reason: "unknown" | "used" | "expired" } | { reason: "limited"; retryMinutes: number };

/** A look at a link (the reset page), counted against the client's tries. */
export async function lookAtResetLink(token: string): Promise<ResetLink | ({ ok: false } & LinkProblem)> {
  const { ip } = await requestInfo();
  const taken = await takeFromLimits([[linkTriesPerClient(), ip]]);
  if (!taken.ok) return { ok: false, reason: "limited", retryMinutes: retryMinutes(taken.retryAfterMs) };
  return passwordReset().check(token, dashboard().clock.now());
}

export type ResetAnswer = { ok: true } | { ok: false; passwordProblem: string } | ({ ok: false } & LinkProblem);

/**
 * Sets a new password with a link, under the sign-up rule (which needs the account's address, so the link is
 * looked at first): every session of the account ends and the "password changed" notice is queued.
 */
export async function resetPassword(token: string, password: string): Promise<ResetAnswer> {
  const link = await lookAtResetLink(token);
  if (!link.ok) return link;
  const problem = passwordProblem(password, link.email);
  if (problem) return { ok: false, passwordProblem: problem };
  const done = await passwordReset().complete(token, password, dashboard().clock.now(), await requestClient());
  return done.ok ? { ok: true } : done;
}
