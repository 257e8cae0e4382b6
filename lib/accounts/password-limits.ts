/**
 * The password rule's numbers, apart from the rule itself (password-rule.ts), which loads zxcvbn's
 * dictionaries: pages import these without shipping megabytes of word lists to the browser.
 */

export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 1024;
/** From this length a password only has to be off the common-password list; shorter ones must score 3 or more. */
export const LONG_PASSWORD_LENGTH = 12;

/** The rule in one line, for the forms' hints. */
export const PASSWORD_HINT = `At least ${LONG_PASSWORD_LENGTH} characters (a few unrelated words make a good one), or ${MIN_PASSWORD_LENGTH} that are hard to guess; not a common password, and not your email address.`;
