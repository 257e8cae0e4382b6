import { z } from "zod";
import { ALERT_TEMPLATES } from "./alert-content.ts";

/** What one mail says; rendered into HTML and plain text by message.tsx. */
export interface MailContent {
  subject: string;
  heading: string;
  paragraphs: string[];
  action?: { label: string; href: string };
  footer: string;
  /** A notice the service sends on its own (Auto-Submitted: auto-generated), not an answer to a request. */
  notice: boolean;
  /** A one-click unsubscribe link (List-Unsubscribe, RFC 8058): alert mail and the digest. */
  unsubscribe?: string;
}

const link = z.url({ protocol: /^https?$/ });
const when = z.string().max(100);
const IGNORE = "If this was not you, you can ignore this mail.";
const SECURE = "If this was not you, reset your password now and review your sessions and API keys.";

/** Each kind of mail: the data its row holds (checked again when it is sent) and what it says. */
export const TEMPLATES = {
  password_reset: {
    data: z.object({ link, minutes: z.number().int().positive() }),
    content: (d: { link: string; minutes: number }): MailContent => ({
      subject: "Reset your sharecount password",
      heading: "Reset your password",
      paragraphs: [
        "Someone asked to reset the password of the sharecount account for this address.",
        `The link works once, for ${d.minutes} minutes. A newer link replaces it.`,
      ],
      action: { label: "Choose a new password", href: d.link },
      footer: IGNORE,
      notice: false,
    }),
  },
  password_reset_oauth: {
    data: z.object({ providers: z.array(z.string().max(40)).max(5), link }),
    content: (d: { providers: string[]; link: string }): MailContent => ({
      subject: "Signing in to sharecount",
      heading: "Your account has no password",
      paragraphs: [
        "Someone asked to reset the password of the sharecount account for this address.",
        `This account signs in with ${d.providers.join(" or ")}, so it has no password to reset. Use that button on the sign-in page.`,
      ],
      action: { label: "Go to sign-in", href: d.link },
      footer: IGNORE,
      notice: false,
    }),
  },
  verify_email: {
    data: z.object({ link, hours: z.number().int().positive() }),
    content: (d: { link: string; hours: number }): MailContent => ({
      subject: "Confirm your email address for sharecount",
      heading: "Confirm your email address",
      paragraphs: [
        "Confirm that this address belongs to your sharecount account, so alerts and notices can reach it.",
        `The link works once, for ${d.hours} hours.`,
      ],
      action: { label: "Confirm this address", href: d.link },
      footer: IGNORE,
      notice: false,
    }),
  },
  change_email: {
    data: z.object({ link, hours: z.number().int().positive() }),
    content: (d: { link: string; hours: number }): MailContent => ({
      subject: "Confirm your new email address for sharecount",
      heading: "Confirm your new address",
      paragraphs: [
        "Your sharecount account asked to use this address from now on. Until you confirm it, the old address stays.",
        `The link works once, for ${d.hours} hours.`,
      ],
      action: { label: "Use this address", href: d.link },
      footer: IGNORE,
      notice: false,
    }),
  },
  email_change_requested: {
    data: z.object({ newEmail: z.string().max(320), link }),
    content: (d: { newEmail: string; link: string }): MailContent => ({
      subject: "Your sharecount email address is being changed",
      heading: "Your email address is being changed",
      paragraphs: [
        `Your sharecount account asked to move to ${d.newEmail}. It changes when that address confirms; until then this one stays.`,
        SECURE,
      ],
      action: { label: "Review your account", href: d.link },
      footer: "This notice goes to the address the account had.",
      notice: true,
    }),
  },
  email_changed: {
    data: z.object({ newEmail: z.string().max(320), when, link }),
    content: (d: { newEmail: string; when: string; link: string }): MailContent => ({
      subject: "Your sharecount email address was changed",
      heading: "Your email address was changed",
      paragraphs: [`Your sharecount account now uses ${d.newEmail} (changed ${d.when}). Mail goes there from now on.`, SECURE],
      action: { label: "Reset your password", href: d.link },
      footer: "This notice goes to the address the account had.",
      notice: true,
    }),
  },
  password_changed: {
    data: z.object({ when, link }),
    content: (d: { when: string; link: string }): MailContent => ({
      subject: "Your sharecount password was changed",
      heading: "Your password was changed",
      paragraphs: [`The password of your sharecount account was changed ${d.when}.`, SECURE],
      action: { label: "Reset your password", href: d.link },
      footer: "A security notice about your account.",
      notice: true,
    }),
  },
  api_key_rolled: {
    // name and until: rows queued before named keys carry neither, and must still be sent.
    data: z.object({ when, link, name: z.string().max(100).optional(), until: z.string().max(60).nullable().optional() }),
    content: (d: { when: string; link: string; name?: string; until?: string | null }): MailContent => ({
      subject: "Your sharecount API key was rolled",
      heading: "Your API key was rolled",
      paragraphs: [
        d.name === undefined
          ? `A new API key replaced the old one ${d.when}. Requests with the old key are refused.`
          : `A new key replaced your API key "${d.name}" ${d.when}. ${d.until ? `The old key keeps working until ${d.until}.` : "Requests with the old key are refused."}`,
        SECURE,
      ],
      action: { label: "See your keys", href: d.link },
      footer: "A security notice about your account.",
      notice: true,
    }),
  },
  api_key_revoked: {
    data: z.object({ when, link, name: z.string().max(100) }),
    content: (d: { when: string; link: string; name: string }): MailContent => ({
      subject: "A sharecount API key was revoked",
      heading: "An API key was revoked",
      paragraphs: [`Your API key "${d.name}" was revoked ${d.when}. Requests with it are refused.`, SECURE],
      action: { label: "See your keys", href: d.link },
      footer: "A security notice about your account.",
      notice: true,
    }),
  },
  team_invite: {
    data: z.object({ link, account: z.string().max(320), inviter: z.string().max(320), role: z.string().max(20), days: z.number().int().positive() }),
    content: (d: { link: string; account: string; inviter: string; role: string; days: number }): MailContent => ({
      subject: `${d.inviter} invited you to a sharecount account`,
      heading: "Join a sharecount account",
      paragraphs: [
        `${d.inviter} invited you to work in the sharecount account ${d.account} as ${d.role}.`,
        `Sign in or create an account from the link, then join. The link works once, for ${d.days} days.`,
      ],
      action: { label: "Open the invitation", href: d.link },
      footer: "If you did not expect this, you can ignore this mail.",
      notice: false,
    }),
  },
  new_sign_in: {
    data: z.object({ browser: z.string().max(120), network: z.string().max(60), when, link }),
    content: (d: { browser: string; network: string; when: string; link: string }): MailContent => ({
      subject: "A new sign-in to your sharecount account",
      heading: "New sign-in",
      paragraphs: [`Your sharecount account was signed in to ${d.when} from ${d.browser}, on a network it was not used from before (${d.network}).`, SECURE],
      action: { label: "Review your sessions", href: d.link },
      footer: "A security notice about your account.",
      notice: true,
    }),
  },
  account_deleted: {
    data: z.object({ when, link }),
    content: (d: { when: string; link: string }): MailContent => ({
      subject: "Your sharecount account was deleted",
      heading: "Your account was deleted",
      paragraphs: [
        `Your sharecount account and everything it owned were deleted ${d.when}. Its API key no longer works.`,
        "If you did not ask for this, reply to your administrator at once.",
      ],
      action: { label: "Create a new account", href: d.link },
      footer: "The last mail about this account.",
      notice: true,
    }),
  },
  webhook_disabled: {
    data: z.object({ url: z.string().max(2048), days: z.number().int().positive(), link }),
    content: (d: { url: string; days: number; link: string }): MailContent => ({
      subject: "A sharecount webhook endpoint was turned off",
      heading: "Webhook endpoint turned off",
      paragraphs: [
        `Deliveries to ${d.url} failed for ${d.days} days without one success, so sharecount turned the endpoint off and gave up its pending events.`,
        "Once the endpoint answers again, turn it back on in the dashboard: events from then on are delivered to it.",
      ],
      action: { label: "Open Alerts", href: d.link },
      footer: "A notice about your account's webhooks.",
      notice: true,
    }),
  },
  ...ALERT_TEMPLATES,
} as const;

export type MailKind = keyof typeof TEMPLATES;
export type MailData<K extends MailKind> = z.infer<(typeof TEMPLATES)[K]["data"]>;

export function isMailKind(kind: string): kind is MailKind {
  return Object.hasOwn(TEMPLATES, kind);
}
