import { toASCII } from "tr46";
import { z } from "zod";

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The longest address SMTP can deliver to (RFC 5321 path limit less its brackets). */
export const MAX_EMAIL_LENGTH = 254;
/** RFC 5321's limit for the part before the @. */
const MAX_LOCAL_PART_LENGTH = 64;

/**
 * Characters no address of ours holds: whitespace, controls, formatting and other invisible characters (a
 * zero-width space, U+3164 HANGUL FILLER), and the specials that need quoting in a mail header, which people
 * never type in an address but markup and header injection do (`<img>@x.yz`, `a,b@c.de`).
 */
const FORBIDDEN = /[\s\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}<>()[\]\\,;:@"]/u;

/** The URL standard's domain-to-ASCII, strictly: letters, digits and inner hyphens per label, DNS lengths. */
const IDNA = { checkBidi: true, checkJoiners: true, checkHyphens: true, useSTD3ASCIIRules: true, verifyDNSLength: true, transitionalProcessing: false };
const LDH_LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

function isLocalPart(local: string): boolean {
  return (
    local.length > 0 &&
    local.length <= MAX_LOCAL_PART_LENGTH &&
    !FORBIDDEN.test(local) &&
    !local.startsWith(".") &&
    !local.endsWith(".") &&
    !local.includes("..")
  );
}

/** A domain mail can be sent to: two labels or more of a host name, international ones valid under IDNA. */
function isMailDomain(domain: string): boolean {
  if (FORBIDDEN.test(domain)) return false;
  const ascii = toASCII(domain, IDNA);
  if (ascii === null) return false;
  const labels = ascii.split(".");
  return labels.length >= 2 && labels.every((label) => LDH_LABEL.test(label)) && !/^\d+$/.test(labels.at(-1)!);
}

/**
 * An account's email as typed: trimmed and lowercased, bounded, a local part without stray dots or specials
 * at a domain that is a host name. International names and domains (josé@bücher.de) are addresses; quoted
 * local parts and address literals (`user@[192.0.2.1]`), which no sign-up form needs, are not.
 */
export const emailAddress = z
  .string()
  .trim()
  .toLowerCase()
  .max(MAX_EMAIL_LENGTH, `An email address has at most ${MAX_EMAIL_LENGTH} characters.`)
  .refine((email) => {
    const at = email.lastIndexOf("@");
    return at > 0 && isLocalPart(email.slice(0, at)) && isMailDomain(email.slice(at + 1));
  }, "Enter a valid email address.");
